import { processInvocation, runCli } from './run.js';

// The gateway binary: one command line on the process's own streams, then its exit code.
process.exit(await runCli(process.argv.slice(2), processInvocation()));
