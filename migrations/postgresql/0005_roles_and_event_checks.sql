-- Roles: PostgreSQL lets every role (PUBLIC) execute a new function, so until now any role that
-- could connect read every snapshot chunk, stored snapshots and deleted them through the SECURITY
-- DEFINER functions. From here on nothing is granted to PUBLIC: the owner of the tables (who runs
-- the migrations) grants writers and readers what they need, as the README's table lists.
REVOKE ALL ON TABLE events, snapshots, snapshot_chunks, blobs, schema_migrations FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_save_snapshot(BIGINT, INTEGER, INTEGER, BIGINT, TEXT, BYTEA, INTEGER) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_save_snapshot_chunks(BIGINT, INTEGER, INTEGER, BIGINT, TEXT, BYTEA, INTEGER, BYTEA, INTEGER) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_snapshot_chunk(BIGINT, INTEGER, INTEGER, INTEGER) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_delete_snapshots() FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_events_before_insert() FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_events_reject_change() FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_blobs_reject_update() FROM PUBLIC;
-- Functions later migrations create are not executable by PUBLIC either.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- The insert trigger refuses what would break the log for every client: an envelope tally cannot
-- read (ids, streams, types, versions, times out of range, data that is not a JSON object) and a
-- row whose hash does not link to the event before it, recomputed here exactly as tally computes
-- it (SHA-256 of the previous hash and the canonical JSON of the envelope, see EventHash.swift).
-- It still serialises appends on the append lock, checks that seq is the next one, and records
-- the session's role. A taken (stream, version) or id is left to the unique indexes, so a
-- concurrent writer still sees an ordinary conflict.
CREATE OR REPLACE FUNCTION tally_events_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last_seq     BIGINT;
  last_hash    TEXT;
  last_version INTEGER;
  expected     TEXT;
BEGIN
  PERFORM pg_advisory_xact_lock(7283945501);
  SELECT seq, hash INTO last_seq, last_hash FROM events ORDER BY seq DESC LIMIT 1;
  last_seq := COALESCE(last_seq, 0);
  IF NEW.seq <> last_seq + 1 THEN
    RAISE EXCEPTION 'events must be appended in order: seq % after %', NEW.seq, last_seq
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.id !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RAISE EXCEPTION 'event %: the id is not a lowercase UUID', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.command !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RAISE EXCEPTION 'event %: the command is not a lowercase UUID', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.stream !~ '^[0-9A-Za-z][0-9A-Za-z:._-]{0,99}$' THEN
    RAISE EXCEPTION 'event %: the stream is not 1-100 letters, digits or ":._-"', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.type !~ '^[a-z][a-z_]{0,30}\.[a-z][a-z_]{0,30}$' THEN
    RAISE EXCEPTION 'event %: the type is not a tally event type', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.schema < 1 OR NEW.schema > 1000 THEN
    RAISE EXCEPTION 'event %: schema % is not between 1 and 1000', NEW.seq, NEW.schema USING ERRCODE = 'check_violation';
  END IF;
  -- Versions of a stream run 1, 2, 3, ...: a version past the next one leaves a gap no client can fill.
  SELECT max(version) INTO last_version FROM events WHERE stream = NEW.stream;
  IF NEW.version < 1 OR NEW.version > COALESCE(last_version, 0) + 1 THEN
    RAISE EXCEPTION 'event %: version % of stream % does not follow version %', NEW.seq, NEW.version, NEW.stream, COALESCE(last_version, 0)
      USING ERRCODE = 'check_violation';
  END IF;
  -- Years 0001 to 9999, in milliseconds since 1970.
  IF NEW.recorded_at < -62135596800000 OR NEW.recorded_at > 253402300799999 THEN
    RAISE EXCEPTION 'event %: the time % is not between the years 1 and 9999', NEW.seq, NEW.recorded_at USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.actor = '' OR char_length(NEW.actor) > 200 OR NEW.actor ~ '[\u0001-\u001f\u007f-\u009f]' THEN
    RAISE EXCEPTION 'event %: the actor is not 1-200 characters without control characters', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  IF octet_length(NEW.data) > 1048576 THEN
    RAISE EXCEPTION 'event %: the data is larger than 1 MiB', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  -- The cast refuses text that is not JSON.
  IF json_typeof(NEW.data::json) <> 'object' THEN
    RAISE EXCEPTION 'event %: the data is not a JSON object', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  expected := encode(sha256(convert_to(
    COALESCE(last_hash, repeat('0', 64))
    || '{"actor":' || to_json(NEW.actor)::text || ',"command":' || to_json(NEW.command)::text
    || ',"data":' || NEW.data || ',"id":' || to_json(NEW.id)::text
    || ',"recordedAt":' || NEW.recorded_at || ',"schema":' || NEW.schema || ',"seq":' || NEW.seq
    || ',"stream":' || to_json(NEW.stream)::text || ',"type":' || to_json(NEW.type)::text
    || ',"version":' || NEW.version || '}', 'UTF8')), 'hex');
  IF NEW.hash IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'event %: the hash does not link to the event before it', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  NEW.role := session_user;
  RETURN NEW;
END;
$$;

-- Every function finds tally's tables in their own schema, never in the caller's temporary schema
-- (searched first unless named last): a role that can create a temporary table named events must
-- not be able to make the trigger read it.
DO $$
DECLARE
  home TEXT := (SELECT quote_ident(nspname) FROM pg_namespace WHERE oid = (SELECT relnamespace FROM pg_class WHERE oid = 'events'::regclass));
  signature TEXT;
BEGIN
  FOREACH signature IN ARRAY ARRAY[
    'tally_save_snapshot(BIGINT, INTEGER, INTEGER, BIGINT, TEXT, BYTEA, INTEGER)',
    'tally_save_snapshot_chunks(BIGINT, INTEGER, INTEGER, BIGINT, TEXT, BYTEA, INTEGER, BYTEA, INTEGER)',
    'tally_snapshot_chunk(BIGINT, INTEGER, INTEGER, INTEGER)',
    'tally_delete_snapshots()',
    'tally_events_before_insert()'
  ] LOOP
    EXECUTE 'ALTER FUNCTION ' || signature || ' SET search_path = ' || home || ', pg_temp';
  END LOOP;
END;
$$;

-- The trigger's lookups are one index probe each. A table the planner believes empty (vacuumed
-- before a bulk import) would otherwise get sequential scans, once per inserted row.
ALTER FUNCTION tally_events_before_insert() SET enable_seqscan = off;
