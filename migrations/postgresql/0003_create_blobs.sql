-- Original activity files (GPX, TCX, FIT), content-addressed: named by the SHA-256 of the
-- decoded content, which record.logged events carry. Stored once, never changed.
CREATE TABLE blobs(
  sha256   TEXT PRIMARY KEY,
  encoding TEXT NOT NULL CHECK (encoding IN ('identity', 'gzip')),
  body     BYTEA NOT NULL
);

CREATE FUNCTION tally_blobs_reject_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'blobs are content-addressed: UPDATE is not allowed';
END;
$$;

CREATE TRIGGER blobs_reject_update BEFORE UPDATE ON blobs
  FOR EACH ROW EXECUTE FUNCTION tally_blobs_reject_update();
