/**
 * Imported before Astro, so that the bundler's native allocator reads it when its library loads: Vite 8 bundles with
 * rolldown, whose mimalloc by default keeps freed pages for 10 ms before returning them, and a build frees and takes
 * memory fast enough that it kept about 70 MB more resident at its peak (the 2,000-page benchmark build: 754–766 MB
 * with pages returned at once, 819–852 MB without, at the same wall time). A value set by the operator stands.
 */
process.env.MIMALLOC_PURGE_DELAY ??= "0";
