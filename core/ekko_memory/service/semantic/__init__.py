"""Semantic recall: embedders, the per-store vector index, indexing off the reply's path,
and near-duplicate search. Part of the service (it reads the stores and reports progress
like every other long run)."""
