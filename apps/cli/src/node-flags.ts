/**
 * V8 heap options for Kasse's services-mode processes: the `npm run kasse` and `npm run worker`
 * scripts pass them, and `npm run bench` starts its server with them. V8 sizes the old
 * generation by how much the heap may grow: under the default limit (gigabytes) it lets the heap
 * grow to about four times what is live after each collection (under the bench: 56 MiB live,
 * 237 MiB of heap pages), and at 512 MB to about 1.4 times; 512 MB is still nine times the live
 * heap. Young-generation semi-spaces of 4 MB instead of 16 MB keep what dies young small too.
 * Later options win: `node <these> --max-old-space-size=2048 …` raises the limit again.
 * `npm start` (embedded, a developer's machine) goes without: they cost a start about 5-10% more
 * CPU (more collections while the modules load), and there PGlite's memory is not V8's heap.
 */
export const SERVER_NODE_FLAGS = ["--max-old-space-size=512", "--max-semi-space-size=4"] as const;
