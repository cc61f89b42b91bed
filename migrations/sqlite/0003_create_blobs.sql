-- Original activity files (GPX, TCX, FIT), content-addressed: named by the SHA-256 of the
-- decoded content, which record.logged events carry. Stored once, never changed or removed.
CREATE TABLE blobs(
  sha256   TEXT PRIMARY KEY,
  encoding TEXT NOT NULL CHECK (encoding IN ('identity', 'gzip')),
  body     BLOB NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER blobs_reject_update BEFORE UPDATE ON blobs
BEGIN
  SELECT RAISE(ABORT, 'blobs are content-addressed: UPDATE is not allowed');
END;
