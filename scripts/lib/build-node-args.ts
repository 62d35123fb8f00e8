/**
 * The Node arguments every build process starts with. `npm run build` writes the same in
 * package.json, and test/scripts/build-node-args.test.ts keeps the two equal.
 *
 * The heap cap is there for memory, not as a guard. V8 sizes its old generation against the heap
 * limit, which on a large machine defaults to several GB, so a build let its heap grow far beyond
 * what it holds. The 2,000-page benchmark build (`npm run bench -- build`, ≤ 1 GB) reached 438 MB
 * of heap and 760–880 MB RSS, though it ran to the end with the heap capped at 200 MB. With a
 * 1 GB cap, its own peak RSS is 610–650 MB (about 830–870 MB with the indexer and bundler it
 * starts) and it runs no slower.
 */
export const BUILD_NODE_ARGS: readonly string[] = ["--max-old-space-size=1024"];
