import { expect } from 'chai';
import { GatewayError } from '../../src/domain/errors.js';
import { checkRedirectUri, isAllowedRedirect } from '../../src/domain/redirect-uris.js';
import { eachDialect, problem } from '../support/harness.js';

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

eachDialect('redirect allowlist', (h) => {
  const put = (redirect_uris: unknown, headers?: Record<string, string>) =>
    h().request({ method: 'PUT', url: '/v1/connect/redirect-uris', payload: { redirect_uris }, headers });
  const current = async () => (await h().request({ method: 'GET', url: '/v1/connect/redirect-uris' })).json;

  it('starts empty: exactly {redirect_uris: []}', async () => {
    const res = await h().request({ method: 'GET', url: '/v1/connect/redirect-uris' });
    expect(res.statusCode).to.equal(200);
    expect(res.json).to.deep.equal({ redirect_uris: [] });
  });

  it('replaces the whole list, in canonical form and without duplicates', async () => {
    const res = await put([
      'https://app.example.com/connect/done',
      'HTTPS://App.Example.COM:443/connect/done',
      'https://app.example.com:8443/cb',
      'http://localhost:3000/callback',
      'http://127.0.0.1/cb',
      'https://example.org',
    ]);
    expect(res.statusCode).to.equal(200);
    const expected = {
      redirect_uris: [
        'https://app.example.com/connect/done',
        'https://app.example.com:8443/cb',
        'http://localhost:3000/callback',
        'http://127.0.0.1/cb',
        'https://example.org/',
      ],
    };
    expect(res.json).to.deep.equal(expected);
    expect(await current()).to.deep.equal(expected);

    expect((await put(['https://other.example.com/cb'])).json).to.deep.equal({ redirect_uris: ['https://other.example.com/cb'] });
    expect(await current()).to.deep.equal({ redirect_uris: ['https://other.example.com/cb'] });
    expect((await put([])).json).to.deep.equal({ redirect_uris: [] });
  });

  it('rejects the whole PUT when one entry breaks a rule, naming each bad entry', async () => {
    await put(['https://keep.example.com/cb']);
    const bad = [
      'http://app.example.com/cb',
      'https://app.example.com/cb?next=1',
      'https://app.example.com/cb?',
      'https://app.example.com/cb#top',
      'https://user:pass@app.example.com/cb',
      'https://user@app.example.com/cb',
      'ftp://app.example.com/cb',
      '/relative/cb',
      'https://app.example.com/c b',
      'http://[::1]/cb',
      'http://localhost.evil.com/cb',
    ];
    for (const uri of bad) {
      const body = problem(await put(['https://fine.example.com/cb', uri]), 400, 'invalid_input');
      expect(body.invalid_params, uri).to.have.length(1);
      expect(body.invalid_params[0].name).to.equal('payload.redirect_uris.1');
      expect(body.invalid_params[0].reason, uri).to.include(uri);
    }
    const many = problem(await put([bad[0], 'https://fine.example.com/cb', bad[1]]), 400, 'invalid_input');
    expect(many.invalid_params.map((p: { name: string }) => p.name)).to.deep.equal(['payload.redirect_uris.0', 'payload.redirect_uris.2']);
    expect(many.invalid_params[0].reason).to.match(/https/);
    expect(many.invalid_params[1].reason).to.match(/query/);
    expect(await current()).to.deep.equal({ redirect_uris: ['https://keep.example.com/cb'] });
  });

  it('enforces the bounds: at most 100 entries of at most 2000 characters, no NUL', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `https://app.example.com/cb/${i}`);
    expect((await put(hundred)).json.redirect_uris).to.have.length(100);
    problem(await put([...hundred, 'https://app.example.com/cb/100']), 400, 'invalid_input');
    const long = `https://app.example.com/${'x'.repeat(2000 - 'https://app.example.com/'.length)}`;
    expect((await put([long])).statusCode).to.equal(200);
    problem(await put([`${long}x`]), 400, 'invalid_input');
    problem(await put(['https://app.example.com/a\u0000b']), 400, 'invalid_input');
    expect(await current()).to.deep.equal({ redirect_uris: [long] });
  });

  it('answers malformed bodies with 400 invalid_input', async () => {
    for (const payload of [{}, { redirect_uris: 'https://app.example.com/cb' }, { redirect_uris: [42] }, { redirect_uris: [''] }, { redirect_uris: [], extra: 1 }]) {
      problem(await h().request({ method: 'PUT', url: '/v1/connect/redirect-uris', payload }), 400, 'invalid_input');
    }
    problem(await h().request({ method: 'PUT', url: '/v1/connect/redirect-uris' }), 400, 'invalid_input');
    problem(await h().request({ method: 'GET', url: '/v1/connect/redirect-uris?all=1' }), 400, 'invalid_input');
  });

  it('lets any key read but only admin and owner keys replace; tokens get 403 role_forbidden', async () => {
    await put(['https://app.example.com/cb']);
    const member = await h().keyWithRole('member');
    const admin = await h().keyWithRole('admin');
    expect((await h().request({ method: 'GET', url: '/v1/connect/redirect-uris', headers: bearer(member) })).json).to.deep.equal({
      redirect_uris: ['https://app.example.com/cb'],
    });
    problem(await put(['https://member.example.com/cb'], bearer(member)), 403, 'role_forbidden');
    expect((await put(['https://admin.example.com/cb'], bearer(admin))).statusCode).to.equal(200);
    const token = (await h().request({ method: 'POST', url: '/v1/tokens', payload: { principal: 'user:ada' } })).json.token;
    problem(await h().request({ method: 'GET', url: '/v1/connect/redirect-uris', headers: bearer(token) }), 403, 'role_forbidden');
    problem(await put(['https://token.example.com/cb'], bearer(token)), 403, 'role_forbidden');
    expect(await current()).to.deep.equal({ redirect_uris: ['https://admin.example.com/cb'] });
  });

  it('matches callbacks exactly on scheme, host, port and path', async () => {
    await put(['https://app.example.com/connect/done', 'http://localhost:3000/cb']);
    const allowed = (uri: string) => isAllowedRedirect(h().gateway, h().organizationId, uri);
    for (const uri of [
      'https://app.example.com/connect/done',
      'https://APP.example.com:443/connect/done',
      'https://app.example.com/connect/done?state=xyz',
      'http://localhost:3000/cb',
    ]) {
      expect(await allowed(uri), uri).to.equal(true);
    }
    for (const uri of [
      'http://app.example.com/connect/done',
      'https://app.example.com:8443/connect/done',
      'https://evil.example.com/connect/done',
      'https://app.example.com.evil.com/connect/done',
      'https://app.example.com/connect/done/',
      'https://app.example.com/connect/done/more',
      'https://app.example.com/connect',
      'https://app.example.com/Connect/Done',
      'https://app.example.com/connect/done#frag',
      'https://user@app.example.com/connect/done',
      'http://localhost:3001/cb',
      'http://localhost/cb',
      'not a url',
    ]) {
      expect(await allowed(uri), uri).to.equal(false);
    }
    await checkRedirectUri(h().gateway, h().organizationId, 'https://app.example.com/connect/done');
    const refused = await checkRedirectUri(h().gateway, h().organizationId, 'https://evil.example.com/').catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(GatewayError);
    expect((refused as GatewayError).code).to.equal('invalid_input');
  });
});
