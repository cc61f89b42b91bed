-- The shared event log: append-only, one row per event, in one global, gap-free order.
CREATE TABLE events(
  seq         BIGINT PRIMARY KEY CHECK (seq > 0),
  id          TEXT NOT NULL UNIQUE,
  stream      TEXT NOT NULL,
  version     INTEGER NOT NULL,
  type        TEXT NOT NULL,
  schema      INTEGER NOT NULL,
  data        TEXT NOT NULL,
  recorded_at BIGINT NOT NULL,
  actor       TEXT NOT NULL,
  command     TEXT NOT NULL,
  hash        TEXT NOT NULL,
  -- The database role that appended the row, set by the server (see tally_events_before_insert).
  role        TEXT NOT NULL DEFAULT session_user,
  UNIQUE(stream, version)
);

-- Every append serialises on one transaction-level advisory lock, so seq is gap-free and
-- increases in commit order: a reader that has seen seq = N and asks for seq > N never misses
-- an event committed later. The role is the session's, whatever the client sent.
CREATE FUNCTION tally_events_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last BIGINT;
BEGIN
  PERFORM pg_advisory_xact_lock(7283945501);
  SELECT max(seq) INTO last FROM events;
  IF NEW.seq <> COALESCE(last, 0) + 1 THEN
    RAISE EXCEPTION 'events must be appended in order: seq % after %', NEW.seq, COALESCE(last, 0)
      USING ERRCODE = 'check_violation';
  END IF;
  NEW.role := session_user;
  RETURN NEW;
END;
$$;

CREATE TRIGGER events_before_insert BEFORE INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION tally_events_before_insert();

CREATE FUNCTION tally_events_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER events_reject_update BEFORE UPDATE ON events
  FOR EACH ROW EXECUTE FUNCTION tally_events_reject_change();
CREATE TRIGGER events_reject_delete BEFORE DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION tally_events_reject_change();
CREATE TRIGGER events_reject_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION tally_events_reject_change();

-- Read models at a log position, so start-up folds only the tail.
CREATE TABLE snapshots(
  seq             BIGINT NOT NULL,
  format          INTEGER NOT NULL,
  reducer_version INTEGER NOT NULL,
  created_at      BIGINT NOT NULL,
  checksum        TEXT NOT NULL,
  body            BYTEA NOT NULL,
  PRIMARY KEY(seq, format, reducer_version)
);

-- Snapshots are derived data any client of the log may store and prune, through these two
-- functions, so a role needs no UPDATE or DELETE grant of its own.
CREATE FUNCTION tally_save_snapshot(p_seq BIGINT, p_format INTEGER, p_reducer INTEGER, p_created BIGINT,
                                    p_checksum TEXT, p_body BYTEA, p_keep INTEGER)
RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path FROM CURRENT AS $$
  INSERT INTO snapshots(seq, format, reducer_version, created_at, checksum, body)
  VALUES (p_seq, p_format, p_reducer, p_created, p_checksum, p_body)
  ON CONFLICT (seq, format, reducer_version)
  DO UPDATE SET created_at = EXCLUDED.created_at, checksum = EXCLUDED.checksum, body = EXCLUDED.body;
  DELETE FROM snapshots WHERE format <> p_format OR reducer_version <> p_reducer OR seq NOT IN (
    SELECT seq FROM snapshots WHERE format = p_format AND reducer_version = p_reducer ORDER BY seq DESC LIMIT p_keep);
$$;

CREATE FUNCTION tally_delete_snapshots() RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path FROM CURRENT AS $$
  DELETE FROM snapshots;
$$;
