-- The event log: append-only, one row per event, in log order.
CREATE TABLE events(
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  id          TEXT NOT NULL UNIQUE,
  stream      TEXT NOT NULL,
  version     INTEGER NOT NULL,
  type        TEXT NOT NULL,
  schema      INTEGER NOT NULL,
  data        TEXT NOT NULL,
  recorded_at INTEGER NOT NULL,
  actor       TEXT NOT NULL,
  command     TEXT NOT NULL,
  hash        TEXT NOT NULL,
  UNIQUE(stream, version)
);

CREATE TRIGGER events_reject_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed');
END;

CREATE TRIGGER events_reject_delete BEFORE DELETE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed');
END;

-- Read models at a log position, so start-up folds only the tail.
CREATE TABLE snapshots(
  seq             INTEGER NOT NULL,
  format          INTEGER NOT NULL,
  reducer_version INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  checksum        TEXT NOT NULL,
  body            BLOB NOT NULL,
  PRIMARY KEY(seq, format, reducer_version)
);
