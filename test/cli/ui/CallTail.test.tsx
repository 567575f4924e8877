import { expect } from 'chai';
import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { CallLine } from '../../../src/cli/ui/CallLine.js';
import { CallTail } from '../../../src/cli/ui/CallTail.js';
import { OutcomeLabel } from '../../../src/cli/ui/OutcomeLabel.js';
import { callCells, cellText, COLUMNS, dollars, fitColumns, fitIdentity } from '../../../src/cli/ui/cells.js';
import { makeCall } from './table.js';

/** ANSI foreground colours as chalk writes them at level 1. */
const COLOURED = { green: '\u001b[32m', yellow: '\u001b[33m', red: '\u001b[31m', gray: '\u001b[90m' };
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const linesOf = (frame: string | undefined) => plain(frame).split('\n');

describe('terminal UI components', () => {
  let level: typeof chalk.level;
  before(() => {
    // Colour detection looks at the test runner's stdout; the view is checked as a colour terminal shows it.
    level = chalk.level;
    chalk.level = 1;
  });
  after(() => {
    chalk.level = level;
  });

  it('colours each outcome: hit green, miss yellow, fault red, pending grey', () => {
    for (const [outcome, colour] of [['hit', 'green'], ['miss', 'yellow'], ['fault', 'red'], ['pending', 'gray']] as const) {
      expect(render(<OutcomeLabel outcome={outcome} />).lastFrame()).to.equal(`${COLOURED[colour]}${outcome}\u001b[39m`);
    }
  });

  it('shows a call on one line: time, task, principal, identity, outcome, status, charged, latency', () => {
    const frame = render(<CallLine call={makeCall(123, 'hit', { principal: 'user:ada', identity: 'anonymous' })} widths={fitColumns(100)} />).lastFrame();
    expect(plain(frame).split(/\s+/)).to.deep.equal(['10:00:01.123', 'acme.weather.current', 'user:ada', 'anonymous', 'hit', '200', '$0.002', '12', 'ms']);
    expect(frame).to.include(`${COLOURED.green}hit`);
  });

  it('tells faults apart by HTTP status and error code', () => {
    const cells = (extra: Partial<ReturnType<typeof makeCall>>) => callCells(makeCall(1, 'fault', extra)).status;
    expect(cells({ http_status: 400, error_code: 'invalid_input' })).to.equal('400 invalid_input');
    expect(cells({ http_status: 502, error_code: 'upstream_error' })).to.equal('502 upstream_error');
    expect(callCells(makeCall(1, 'miss')).status).to.equal('404 miss');
    expect(callCells(makeCall(1, 'pending')).status).to.equal('-');
    // A run made under an approval says so; one that asked for an approval shows its code.
    expect(callCells(makeCall(1, 'hit', { approval_id: 'apr_01jd8x7k2m3n4p5q6r7s8t9v0w' })).status).to.equal('200 approved');
    expect(cells({ http_status: 403, error_code: 'approval_required', approval_id: 'apr_01jd8x7k2m3n4p5q6r7s8t9v0w' })).to.equal('403 approval_required');
    // ink-testing-library's terminal is 100 columns wide: the status keeps its number and the start of the code.
    const line = (call: ReturnType<typeof makeCall>) => plain(render(<CallLine call={call} widths={fitColumns(100)} />).lastFrame());
    expect(line(makeCall(1, 'fault', { http_status: 400, error_code: 'invalid_input' }))).to.match(/ fault +400 inv… +\$0\.00 /);
    expect(line(makeCall(1, 'fault'))).to.match(/ fault +502 ups… +\$0\.00 /);
    // On a wider terminal, the whole code.
    expect(cellText(COLUMNS[5], '502 upstream_error', fitColumns(140)[5])).to.match(/^502 upstream_error +$/);
  });

  it('cuts a long identity from the front of its id, keeping connection: and the tail that tells connections apart', () => {
    const identity = 'connection:conn_01jd8x7k2m3n4p5q6r7s8t9v0w';
    expect(fitIdentity(identity, 22)).to.equal('connection:…6r7s8t9v0w');
    expect(fitIdentity(identity, 18)).to.equal('connection:…8t9v0w');
    // Too narrow for the kind and a useful tail: the tail alone.
    expect(fitIdentity(identity, 12)).to.equal('…q6r7s8t9v0w');
    expect(fitIdentity('credential', 12)).to.equal('credential  ');
    const a = makeCall(1, 'hit', { identity: 'connection:conn_01jd8x7k2m3n4p5q6r7s8t9aaaa' });
    const b = makeCall(2, 'hit', { identity: 'connection:conn_01jd8x7k2m3n4p5q6r7s8t9bbbb' });
    const shown = [a, b].map((call) => plain(render(<CallLine call={call} widths={fitColumns(100)} />).lastFrame()));
    expect(shown[0]).to.include(' connection:…t9aaaa ');
    expect(shown[1]).to.include(' connection:…t9bbbb ');
  });

  it('fits the terminal width: text columns shrink, long values are cut with an ellipsis, rows never wrap', () => {
    const call = makeCall(1, 'fault', { task: 'a-provider-with-a-long-name.some.task.id.that.goes.on', identity: 'connection:conn_01jd8x7k2m3n4p5q6r7s8t9v0w' });
    for (const columns of [70, 80, 100]) {
      const lines = linesOf(render(<CallLine call={call} widths={fitColumns(columns)} />).lastFrame());
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/ a-pro\S*… /);
      expect(lines[0]).to.match(/ (connection:)?…\S*9v0w /);
      expect(lines[0].length).to.be.at.most(columns);
    }
    expect(fitColumns(200)).to.deep.equal([12, 30, 14, 24, 7, 24, 11, 8]);
    expect(fitColumns(100)).to.deep.equal([12, 20, 9, 18, 7, 8, 11, 8]);
  });

  it('formats money and times: whole micro-dollars, two to six decimals, no charge or latency while pending', () => {
    expect([0, 0.002, 1.5, 0.123456, 12].map(dollars)).to.deep.equal(['$0.00', '$0.002', '$1.50', '$0.123456', '$12.00']);
    const cells = callCells(makeCall(7, 'pending'));
    expect(cells).to.include({ time: '10:00:01.007', outcome: 'pending', charged: '-', latency: '-' });
  });

  it('prints the header once, shows a pending call live, then prints it once as a green hit', () => {
    const pending = makeCall(1, 'pending');
    const view = render(<CallTail batch={{ serial: 0, calls: [] }} live={[pending]} printed={0} />);
    let lines = linesOf(view.lastFrame());
    expect(lines[0].split(/\s+/)).to.deep.equal(['TIME', 'TASK', 'PRINCIPAL', 'IDENTITY', 'OUTCOME', 'STATUS', 'CHARGED', 'LATENCY']);
    expect(lines[1]).to.match(/^10:00:01\.001 acme\.weather\.current +user:ada +anonymous +pending +- +- +-$/);
    expect(lines[2]).to.equal('0 calls · 1 in flight · Ctrl-C to quit');
    expect(view.lastFrame()).to.include(`${COLOURED.gray}pending`);

    view.rerender(<CallTail batch={{ serial: 1, calls: [{ ...pending, outcome: 'hit', http_status: 200, latency_ms: 25, charged_usd: 0.002 }] }} live={[]} printed={1} />);
    lines = linesOf(view.lastFrame());
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(/^TIME/);
    expect(lines[1]).to.match(/^10:00:01\.001 acme\.weather\.current +user:ada +anonymous +hit +200 +\$0\.002 +25 ms$/);
    expect(lines[2]).to.equal('1 call · 0 in flight · Ctrl-C to quit');
    expect(view.lastFrame()).to.include(`${COLOURED.green}hit`);
    expect(view.lastFrame()).to.not.include('pending');
  });

  it('prints each batch once, below the earlier ones, whatever the batch sizes', () => {
    const view = render(<CallTail batch={{ serial: 0, calls: [] }} live={[]} printed={0} />);
    view.rerender(<CallTail batch={{ serial: 1, calls: [makeCall(1, 'hit'), makeCall(2, 'miss')] }} live={[]} printed={2} />);
    view.rerender(<CallTail batch={{ serial: 1, calls: [makeCall(1, 'hit'), makeCall(2, 'miss')] }} live={[makeCall(4, 'pending')]} printed={2} />);
    view.rerender(<CallTail batch={{ serial: 2, calls: [makeCall(3, 'fault'), makeCall(4, 'hit')] }} live={[]} printed={4} />);
    const lines = linesOf(view.lastFrame());
    expect(lines.map((line) => line.split(/\s+/)[4])).to.deep.equal(['OUTCOME', 'hit', 'miss', 'fault', 'hit', 'in']);
    const frame = view.lastFrame()!;
    expect(frame.indexOf(`${COLOURED.yellow}miss`)).to.be.above(0);
    expect(frame.indexOf(`${COLOURED.red}fault`)).to.be.above(frame.indexOf(`${COLOURED.yellow}miss`));
  });

  it('keeps the live area short: beyond ten in-flight calls it counts the rest', () => {
    const live = Array.from({ length: 25 }, (_, i) => makeCall(i + 1, 'pending'));
    const lines = linesOf(render(<CallTail batch={{ serial: 0, calls: [] }} live={live} printed={0} />).lastFrame());
    expect(lines.filter((line) => line.includes('pending'))).to.have.length(10);
    expect(lines.at(-2)).to.equal('… 15 more in flight');
    expect(lines.at(-1)).to.equal('0 calls · 25 in flight · Ctrl-C to quit');
  });
});
