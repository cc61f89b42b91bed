-- Snapshot bodies in chunks, so a command reads the parts it needs rather than the whole body
-- (format 7 and later). The row keeps the body's size, the chunk size and the XXH64 of every chunk
-- (8 little-endian bytes each); its checksum is the XXH64 of those, the size and the chunk size,
-- so the row proves the body without reading it. Rows of older formats keep their body in `body`.
ALTER TABLE snapshots ADD COLUMN size BIGINT NOT NULL DEFAULT 0;
ALTER TABLE snapshots ADD COLUMN chunk_size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE snapshots ADD COLUMN chunk_sums BYTEA NOT NULL DEFAULT '\x';

CREATE TABLE snapshot_chunks(
  seq             BIGINT NOT NULL,
  format          INTEGER NOT NULL,
  reducer_version INTEGER NOT NULL,
  chunk           INTEGER NOT NULL,
  data            BYTEA NOT NULL,
  PRIMARY KEY(seq, format, reducer_version, chunk)
);
-- Already checksummed and mostly incompressible varints: stored out of line, not compressed.
ALTER TABLE snapshot_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

-- Stores a snapshot: the body is cut into chunks here, on the server. Like tally_save_snapshot,
-- any client may store and prune snapshots through it without grants on the tables.
CREATE FUNCTION tally_save_snapshot_chunks(p_seq BIGINT, p_format INTEGER, p_reducer INTEGER, p_created BIGINT,
                                           p_checksum TEXT, p_body BYTEA, p_chunk_size INTEGER, p_sums BYTEA, p_keep INTEGER)
RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path FROM CURRENT AS $$
  DELETE FROM snapshot_chunks WHERE seq = p_seq AND format = p_format AND reducer_version = p_reducer;
  DELETE FROM snapshots WHERE seq = p_seq AND format = p_format AND reducer_version = p_reducer;
  INSERT INTO snapshots(seq, format, reducer_version, created_at, checksum, body, size, chunk_size, chunk_sums)
  VALUES (p_seq, p_format, p_reducer, p_created, p_checksum, '\x', octet_length(p_body), p_chunk_size, p_sums);
  INSERT INTO snapshot_chunks(seq, format, reducer_version, chunk, data)
  SELECT p_seq, p_format, p_reducer, i, substring(p_body FROM i * p_chunk_size + 1 FOR p_chunk_size)
  FROM generate_series(0, (octet_length(p_body) + p_chunk_size - 1) / p_chunk_size - 1) AS i;
  DELETE FROM snapshots WHERE format <> p_format OR reducer_version <> p_reducer OR seq NOT IN (
    SELECT seq FROM snapshots WHERE format = p_format AND reducer_version = p_reducer ORDER BY seq DESC LIMIT p_keep);
  DELETE FROM snapshot_chunks c WHERE NOT EXISTS (
    SELECT 1 FROM snapshots s WHERE s.seq = c.seq AND s.format = c.format AND s.reducer_version = c.reducer_version);
$$;

-- One chunk of a stored body; readable by any client that may read snapshots.
CREATE FUNCTION tally_snapshot_chunk(p_seq BIGINT, p_format INTEGER, p_reducer INTEGER, p_chunk INTEGER)
RETURNS BYTEA LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
  SELECT data FROM snapshot_chunks WHERE seq = p_seq AND format = p_format AND reducer_version = p_reducer AND chunk = p_chunk;
$$;

CREATE OR REPLACE FUNCTION tally_delete_snapshots() RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path FROM CURRENT AS $$
  DELETE FROM snapshot_chunks;
  DELETE FROM snapshots;
$$;
