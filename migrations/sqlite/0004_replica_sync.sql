-- Replicas: where this file syncs to and how far it matches the shared log. Local configuration, never events.
CREATE TABLE sync_state(
  slot        INTEGER PRIMARY KEY CHECK (slot = 1),
  remote      TEXT,                      -- the shared log's address; NULL when none is set
  synced_seq  INTEGER NOT NULL DEFAULT 0, -- events 1..synced_seq are identical to the shared log's
  synced_hash TEXT NOT NULL,
  last_sync   INTEGER                     -- ms since the Unix epoch of the last finished sync
);
INSERT INTO sync_state(slot, remote, synced_seq, synced_hash, last_sync)
  VALUES (1, NULL, 0, '0000000000000000000000000000000000000000000000000000000000000000', NULL);

-- Set only inside a sync's rebase transaction, which removes it again before committing.
CREATE TABLE sync_rebase(slot INTEGER PRIMARY KEY CHECK (slot = 1));

-- Events stay append-only, except that a sync may replace the unpushed ones after the synced prefix.
DROP TRIGGER events_reject_delete;
CREATE TRIGGER events_reject_delete BEFORE DELETE ON events
WHEN NOT EXISTS (SELECT 1 FROM sync_rebase) OR OLD.seq <= (SELECT synced_seq FROM sync_state WHERE slot = 1)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed');
END;

-- Every change a sync dropped or let override another, so it stays visible (tally conflicts).
CREATE TABLE sync_conflicts(
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  synced_at   INTEGER NOT NULL,
  kind        TEXT NOT NULL,
  event       TEXT NOT NULL,
  command     TEXT NOT NULL,
  stream      TEXT NOT NULL,
  type        TEXT NOT NULL,
  actor       TEXT NOT NULL,
  recorded_at INTEGER NOT NULL,
  field       TEXT,
  value       TEXT,
  other       TEXT
);
