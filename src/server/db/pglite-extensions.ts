/**
 * The contrib extensions the migrations create, for every PGlite this project opens (the worker, and
 * tests that open one themselves): PGlite ships each as a bundle that must be loaded at start for
 * CREATE EXTENSION to find it. pg_trgm: the lists' search indexes (migration list_search).
 */
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const PGLITE_EXTENSIONS = { pg_trgm };
