import { expect } from 'chai';
import { dialects } from '../support/databases.js';
import { refused, useCliDatabase } from './cli.js';

/** Exit codes: 0 success, 1 a failure of the work, 2 a usage or configuration error; always one stderr line. */
const cases: Array<[string[], 1 | 2, RegExp]> = [
  // Usage: a malformed --principal, an empty argument or option, a malformed value of a flag or argument.
  [['tokens', 'issue', '--principal', 'alice'], 2, /--principal <principal>' argument 'alice' is invalid\. principal must be "organization" or "user:<id>"/],
  // Checked with the API's own schema for the operation: the limits of POST /v1/tokens, just past each end.
  [['tokens', 'issue', '--principal', 'user:ada', '--expires-in', '59'], 2, /--expires-in <seconds>' argument '59' is invalid\. expires_in must be greater than or equal to 60/],
  [['tokens', 'issue', '--principal', 'user:ada', '--expires-in', '86401'], 2, /--expires-in <seconds>' argument '86401' is invalid\. expires_in must be less than or equal to 86400/],
  [['tokens', 'issue', '--principal', 'user:ada', '--expires-in', '1.5'], 2, /--expires-in <seconds>' argument '1\.5' is invalid\. must be a whole number of seconds/],
  [['orgs', 'create', ''], 2, /argument 'name' must not be empty/],
  [['orgs', 'create', 'bad name!'], 2, /organization name "bad name!" must be/],
  [['tokens', 'revoke', ' '], 2, /argument 'id' must not be empty/],
  [['tokens', 'revoke', `tok_${'x'.repeat(97)}`], 2, /value 'tok_x+' is invalid for argument 'id'\. id length must be less than or equal to 100 characters long/],
  [['webhooks', 'deliveries', `wh_${'x'.repeat(98)}`], 2, /invalid for argument 'id'\. id length must be less than or equal to 100/],
  [['keys', 'list', '--org', ''], 2, /option '--org <name>' must not be empty/],
  [['webhooks', 'register', 'not a url'], 2, /value 'not a url' is invalid for argument 'url'\. url must be a valid uri/],
  [['redirect-uris', 'add', 'http://app.example.com/cb'], 2, /value is invalid for argument 'uri'\. redirect_uris\[0\] \(http:\/\/app\.example\.com\/cb\) must use https/],
  [['calls', 'list', '--cursor', 'garbage'], 2, /cursor/],
  [['orgs', 'origins', 'default', 'not-an-origin'], 2, /is not an origin/],
  // The work fails: nothing by that id or name.
  [['keys', 'revoke', 'key_nope'], 1, /no active key with id key_nope/],
  [['tokens', 'revoke', 'tok_nope'], 1, /tok_nope/],
  [['tokens', 'revoke', `tok_${'x'.repeat(96)}`], 1, /tok_x{96}/],
  [['orgs', 'suspend', 'nope'], 1, /organization "nope" does not exist/],
];

for (const dialect of dialects) {
  describe(`gateway exit codes [${dialect}]`, function () {
    this.timeout(120000);
    const { gw, spawned } = useCliDatabase(dialect);

    before(async function () {
      this.timeout(120000);
      const created = await gw('orgs', 'create', 'default');
      expect(created.code, created.stderr).to.equal(0);
    });

    for (const [args, code, pattern] of cases) {
      it(`gateway ${args.map((arg) => (/^\S+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ')} exits ${code}`, async () => {
        refused(await gw(...args), code, pattern);
      });
    }

    // The process's own exit status, one command of each group that fails (the cases above run in process).
    const asProcess = cases.filter(([args]) => ['tokens issue --principal alice', 'keys list --org ', 'webhooks register not a url', 'redirect-uris add http://app.example.com/cb', 'calls list --cursor garbage', 'orgs suspend nope', 'keys revoke key_nope'].includes(args.join(' ')));
    for (const [args, code, pattern] of asProcess) {
      it(`gateway ${args.map((arg) => (/^\S+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ')} exits ${code} as a process of its own`, async () => {
        refused(await spawned(...args), code, pattern);
      });
    }
  });
}
