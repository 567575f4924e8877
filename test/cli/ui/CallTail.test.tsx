import { expect } from 'chai';
import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { CallLine } from '../../../src/cli/ui/CallLine.js';
import { CallTail } from '../../../src/cli/ui/CallTail.js';
import { OutcomeLabel } from '../../../src/cli/ui/OutcomeLabel.js';
import { callCells, dollars, fitColumns } from '../../../src/cli/ui/cells.js';
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

  it('shows a call on one line: time, task, principal, identity, outcome, charged, latency', () => {
    const frame = render(<CallLine call={makeCall(123, 'hit', { principal: 'user:ada', identity: 'anonymous' })} widths={fitColumns(100)} />).lastFrame();
    expect(plain(frame).split(/\s+/)).to.deep.equal(['10:00:01.123', 'acme.weather.current', 'user:ada', 'anonymous', 'hit', '$0.002', '12', 'ms']);
    expect(frame).to.include(`${COLOURED.green}hit`);
  });

  it('fits the terminal width: text columns shrink, long values are cut with an ellipsis, rows never wrap', () => {
    const call = makeCall(1, 'fault', { task: 'a-provider-with-a-long-name.some.task.id.that.goes.on', identity: 'connection:conn_01jd8x7k2m3n4p5q6r7s8t9v0w' });
    for (const columns of [70, 80, 100]) {
      const lines = linesOf(render(<CallLine call={call} widths={fitColumns(columns)} />).lastFrame());
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/ a-provide\S*… /);
      expect(lines[0]).to.match(/ connec\S*… /);
      expect(lines[0].length).to.be.at.most(columns);
    }
    expect(fitColumns(200)).to.deep.equal([12, 30, 18, 22, 7, 11, 9]);
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
    expect(lines[0].split(/\s+/)).to.deep.equal(['TIME', 'TASK', 'PRINCIPAL', 'IDENTITY', 'OUTCOME', 'CHARGED', 'LATENCY']);
    expect(lines[1]).to.match(/^10:00:01\.001 acme\.weather\.current +user:ada +anonymous +pending +- +-$/);
    expect(lines[2]).to.equal('0 calls · 1 in flight · Ctrl-C to quit');
    expect(view.lastFrame()).to.include(`${COLOURED.gray}pending`);

    view.rerender(<CallTail batch={{ serial: 1, calls: [{ ...pending, outcome: 'hit', latency_ms: 25, charged_usd: 0.002 }] }} live={[]} printed={1} />);
    lines = linesOf(view.lastFrame());
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(/^TIME/);
    expect(lines[1]).to.match(/^10:00:01\.001 acme\.weather\.current +user:ada +anonymous +hit +\$0\.002 +25 ms$/);
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
