-- Snapshot bodies in chunks, so a command reads the parts it needs rather than the whole body
-- (format 7 and later). The row keeps the body's size, the chunk size and the XXH64 of every chunk
-- (8 little-endian bytes each); its checksum is the XXH64 of those, the size and the chunk size,
-- so the row proves the body without reading it. Rows of older formats keep their body in `body`.
ALTER TABLE snapshots ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE snapshots ADD COLUMN chunk_size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE snapshots ADD COLUMN chunk_sums BLOB NOT NULL DEFAULT x'';

CREATE TABLE snapshot_chunks(
  seq             INTEGER NOT NULL,
  format          INTEGER NOT NULL,
  reducer_version INTEGER NOT NULL,
  chunk           INTEGER NOT NULL,  -- 0-based; chunk i holds bytes i * chunk_size ..< (i + 1) * chunk_size
  data            BLOB NOT NULL,
  PRIMARY KEY(seq, format, reducer_version, chunk)
);
