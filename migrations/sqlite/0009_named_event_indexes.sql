-- The two uniqueness rules of `events` (an event id once; a stream's version once) as NAMED
-- indexes instead of the automatic indexes of inline UNIQUE constraints, which SQLite cannot drop.
-- A clone or a long pull then drops them inside its one transaction, appends in seq order, and
-- builds them again from sorted keys before it commits (a duplicate is refused then, as it was
-- row by row); without that, each pulled event took a random B-tree insert into both.
--
-- SQLite cannot change a table's constraints in place, so the table is rebuilt: same columns,
-- same order, same triggers; the rows copied in seq order, the indexes built after the copy, and
-- AUTOINCREMENT's high-water mark carried over. One transaction, like every migration.
CREATE TABLE events_rebuilt(
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  id          TEXT NOT NULL,
  stream      TEXT NOT NULL,
  version     INTEGER NOT NULL,
  type        TEXT NOT NULL,
  schema      INTEGER NOT NULL,
  data        TEXT NOT NULL,
  recorded_at INTEGER NOT NULL,
  actor       TEXT NOT NULL,
  command     TEXT NOT NULL,
  hash        TEXT NOT NULL
);

INSERT INTO events_rebuilt(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash)
  SELECT seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash FROM events ORDER BY seq;

DELETE FROM sqlite_sequence WHERE name = 'events_rebuilt';
UPDATE sqlite_sequence SET name = 'events_rebuilt' WHERE name = 'events';

-- DROP TABLE fires no trigger; it drops the table's triggers and automatic indexes with it.
DROP TABLE events;
ALTER TABLE events_rebuilt RENAME TO events;

CREATE UNIQUE INDEX events_id ON events(id);
CREATE UNIQUE INDEX events_stream_version ON events(stream, version);

-- The triggers as migrations 0004 and 0008 left them.
CREATE TRIGGER events_reject_delete BEFORE DELETE ON events
WHEN NOT EXISTS (SELECT 1 FROM sync_rebase) OR OLD.seq <= (SELECT synced_seq FROM sync_state WHERE slot = 1)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed');
END;

CREATE TRIGGER events_reject_update BEFORE UPDATE ON events
WHEN NOT EXISTS (SELECT 1 FROM redaction_pass WHERE seq = OLD.seq)
  OR NEW.seq IS NOT OLD.seq OR NEW.id IS NOT OLD.id OR NEW.stream IS NOT OLD.stream
  OR NEW.version IS NOT OLD.version OR NEW.type IS NOT OLD.type OR NEW.schema IS NOT OLD.schema
  OR NEW.recorded_at IS NOT OLD.recorded_at OR NEW.actor IS NOT OLD.actor
  OR NEW.command IS NOT OLD.command OR NEW.hash IS NOT OLD.hash
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed');
END;
