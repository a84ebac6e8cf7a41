-- Trigram matching for product search (`q`): the GIN indexes on product text and variant sku use gin_trgm_ops.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
