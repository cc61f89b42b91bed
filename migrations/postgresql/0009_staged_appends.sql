-- Many writers: staged appends ordered by a sequencer.
--
-- Until now every append took the append lock before reading the head and held it through its
-- COMMIT, so the server's fsync of each command's commit ran inside the lock: one commit at a time,
-- whatever the number of clients. A writer that finds the lock taken may now instead insert its
-- command's events into events_staged and commit that without the lock (concurrent commits share
-- their WAL flushes: PostgreSQL's group commit), then call tally_sequence, which takes the append
-- lock and moves every committed staged command into events in one transaction (one fsync for the
-- batch), giving each event its seq and chaining its hash on the server. Only the sequencer and
-- writers holding the lock append to events, so seq stays gap-free in commit order and a reader
-- of `seq > cursor` still never skips; the sequencer's statement trigger notifies followers as any
-- append does.
--
-- A staged command was decided on the state its writer read, which may be older than the head by
-- the time it is sequenced. Each of its events must still follow its stream's last version then
-- (the optimistic check every event store makes); a command with an event that does not is
-- refused as a whole and deleted, and its writer decides it again under the lock. Writers stage only
-- commands whose decision rests on the streams they append to (see Command.decidesOnItsOwnStreams).

-- The checks of the insert trigger that need no table, shared with the staging trigger. p_label
-- names the event in the message ("event 12: ..."); the texts are those of migrations 5 and 6.
CREATE FUNCTION tally_envelope_problem(p_label TEXT, p_id TEXT, p_command TEXT, p_stream TEXT, p_type TEXT, p_schema INTEGER)
RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_id !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RETURN format('event %s: the id is not a lowercase UUID', p_label);
  END IF;
  IF p_command !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RETURN format('event %s: the command is not a lowercase UUID', p_label);
  END IF;
  IF p_stream !~ '^[0-9A-Za-z][0-9A-Za-z:._-]{0,99}$' THEN
    RETURN format('event %s: the stream is not 1-100 letters, digits or ":._-"', p_label);
  END IF;
  IF p_type !~ '^[a-z][a-z_]{0,30}\.[a-z][a-z_]{0,30}$' THEN
    RETURN format('event %s: the type is not a tally event type', p_label);
  END IF;
  IF p_schema < 1 OR p_schema > 1000 THEN
    RETURN format('event %s: schema %s is not between 1 and 1000', p_label, p_schema);
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION tally_content_problem(p_label TEXT, p_type TEXT, p_recorded_at BIGINT, p_actor TEXT, p_data TEXT)
RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  problem TEXT;
BEGIN
  -- Years 0001 to 9999, in milliseconds since 1970.
  IF p_recorded_at < -62135596800000 OR p_recorded_at > 253402300799999 THEN
    RETURN format('event %s: the time %s is not between the years 1 and 9999', p_label, p_recorded_at);
  END IF;
  IF p_actor = '' OR char_length(p_actor) > 200 OR p_actor ~ '[\u0001-\u001f\u007f-\u009f]' THEN
    RETURN format('event %s: the actor is not 1-200 characters without control characters', p_label);
  END IF;
  IF octet_length(p_data) > 1048576 THEN
    RETURN format('event %s: the data is larger than 1 MiB', p_label);
  END IF;
  -- The cast refuses text that is not JSON.
  IF json_typeof(p_data::json) <> 'object' THEN
    RETURN format('event %s: the data is not a JSON object', p_label);
  END IF;
  -- Limits read the readable form (migration 8): an erased value counts as its placeholder.
  problem := tally_payload_problem(p_type, tally_readable_payload(p_data::jsonb));
  IF problem IS NOT NULL THEN
    RETURN format('event %s (%s): %s', p_label, p_type, problem);
  END IF;
  RETURN NULL;
END;
$$;

-- An event's chain link, exactly as tally computes it (EventHash.swift): SHA-256 of the previous
-- hash and the canonical JSON of the envelope, whose payload is in its committed form (migration 8).
CREATE FUNCTION tally_event_hash(p_previous TEXT, p_seq BIGINT, p_id TEXT, p_stream TEXT, p_version INTEGER, p_type TEXT,
                                 p_schema INTEGER, p_data TEXT, p_recorded_at BIGINT, p_actor TEXT, p_command TEXT)
RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(
    COALESCE(p_previous, repeat('0', 64))
    || '{"actor":' || to_json(p_actor)::text || ',"command":' || to_json(p_command)::text
    || ',"data":' || tally_committed_payload(p_data) || ',"id":' || to_json(p_id)::text
    || ',"recordedAt":' || p_recorded_at || ',"schema":' || p_schema || ',"seq":' || p_seq
    || ',"stream":' || to_json(p_stream)::text || ',"type":' || to_json(p_type)::text
    || ',"version":' || p_version || '}', 'UTF8')), 'hex');
$$;

-- Commands waiting to be ordered. Writers may only insert (no SELECT: nobody reads another
-- writer's staged events); the sequencer, running as the owner, reads and deletes them.
CREATE TABLE events_staged(
  ticket      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  stream      TEXT NOT NULL,
  version     INTEGER NOT NULL,
  type        TEXT NOT NULL,
  schema      INTEGER NOT NULL,
  data        TEXT NOT NULL,
  recorded_at BIGINT NOT NULL,
  actor       TEXT NOT NULL,
  command     TEXT NOT NULL,
  -- The role that staged the row, set by the server; the sequencer keeps it in events.role.
  role        TEXT NOT NULL DEFAULT session_user
);

-- A staged row gets every check an appended one gets that does not depend on the log's end (the
-- envelope, the payload); seq, the hash and the version are the sequencer's, against the head.
CREATE FUNCTION tally_events_staged_before_insert() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  problem TEXT;
BEGIN
  problem := COALESCE(tally_envelope_problem(NEW.id, NEW.id, NEW.command, NEW.stream, NEW.type, NEW.schema),
                      tally_content_problem(NEW.id, NEW.type, NEW.recorded_at, NEW.actor, NEW.data));
  IF problem IS NOT NULL THEN
    RAISE EXCEPTION '%', problem USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.version < 1 THEN
    RAISE EXCEPTION 'event %: version % of stream % is below 1', NEW.id, NEW.version, NEW.stream USING ERRCODE = 'check_violation';
  END IF;
  NEW.role := session_user;
  RETURN NEW;
END;
$$;
CREATE TRIGGER events_staged_before_insert BEFORE INSERT ON events_staged
  FOR EACH ROW EXECUTE FUNCTION tally_events_staged_before_insert();

-- The backends running the sequencer right now, each in its transaction. The insert trigger on
-- events keeps the staged role only for a row inserted by a transaction listed here; only the
-- sequencer (running as the owner) writes this table, and it removes its row before it returns,
-- so no other statement of any writer's transaction is ever taken for the sequencer's.
CREATE TABLE tally_sequencing(
  pid INTEGER PRIMARY KEY,
  xid BIGINT NOT NULL
);

-- The insert trigger of migration 6 with the same checks and messages, now from the shared
-- functions, and one more case: a row the sequencer inserts has had its envelope and payload
-- checked when it was staged, and its seq, hash and version checked or made by the sequencer for
-- the whole batch at once (the unique indexes still hold); it keeps the role that staged it.
CREATE OR REPLACE FUNCTION tally_events_before_insert() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  last_seq     BIGINT;
  last_hash    TEXT;
  last_version INTEGER;
  problem      TEXT;
BEGIN
  PERFORM pg_advisory_xact_lock(7283945501);
  IF current_setting('tally.sequencing', true) = 'on'
     AND EXISTS (SELECT 1 FROM tally_sequencing WHERE pid = pg_backend_pid() AND xid = txid_current()) THEN
    RETURN NEW;
  END IF;
  SELECT seq, hash INTO last_seq, last_hash FROM events ORDER BY seq DESC LIMIT 1;
  last_seq := COALESCE(last_seq, 0);
  IF NEW.seq <> last_seq + 1 THEN
    RAISE EXCEPTION 'events must be appended in order: seq % after %', NEW.seq, last_seq
      USING ERRCODE = 'check_violation';
  END IF;
  problem := tally_envelope_problem(NEW.seq::text, NEW.id, NEW.command, NEW.stream, NEW.type, NEW.schema);
  IF problem IS NOT NULL THEN
    RAISE EXCEPTION '%', problem USING ERRCODE = 'check_violation';
  END IF;
  -- Versions of a stream run 1, 2, 3, ...: a version past the next one leaves a gap no client can fill.
  SELECT max(version) INTO last_version FROM events WHERE stream = NEW.stream;
  IF NEW.version < 1 OR NEW.version > COALESCE(last_version, 0) + 1 THEN
    RAISE EXCEPTION 'event %: version % of stream % does not follow version %', NEW.seq, NEW.version, NEW.stream, COALESCE(last_version, 0)
      USING ERRCODE = 'check_violation';
  END IF;
  problem := tally_content_problem(NEW.seq::text, NEW.type, NEW.recorded_at, NEW.actor, NEW.data);
  IF problem IS NOT NULL THEN
    RAISE EXCEPTION '%', problem USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.hash IS DISTINCT FROM tally_event_hash(last_hash, NEW.seq, NEW.id, NEW.stream, NEW.version, NEW.type, NEW.schema,
                                                NEW.data, NEW.recorded_at, NEW.actor, NEW.command) THEN
    RAISE EXCEPTION 'event %: the hash does not link to the event before it', NEW.seq USING ERRCODE = 'check_violation';
  END IF;
  NEW.role := session_user;
  RETURN NEW;
END;
$$;

-- The sequencer: under the append lock, the committed staged commands in the order they were
-- staged, in batches of up to 1,000 commands until the caller's own are done (all, given no ids);
-- nothing when the lock's previous holder already sequenced the caller's, so that while it held the
-- lock the others' commands gather into the next holder's batch (one commit, one fsync, for all). Each command is
-- appended whole or refused whole: refused when one of its events does not follow its stream's
-- last version (counting the batch's earlier events of that stream) or its id is taken. The
-- versions are checked once per batch, the chain is made in one pass, the batch goes in with one
-- INSERT. Returns the seq and hash of those of p_ids that are in the log afterwards (a caller's
-- own events, whoever sequenced them; none when its command was refused), or, when the lock stayed
-- taken past the caller's lock_timeout, one row of NULLs once its command has been taken back.
CREATE FUNCTION tally_sequence(p_ids TEXT[]) RETURNS TABLE(o_id TEXT, o_seq BIGINT, o_hash TEXT)
LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  head_seq  BIGINT;
  head_hash TEXT;
  batch     BIGINT[];
  refused   TEXT[];
  more      TEXT[];
  tickets   BIGINT[];
  seqs      BIGINT[];
  hashes    TEXT[];
  ev        RECORD;
BEGIN
  BEGIN
    PERFORM pg_advisory_xact_lock(7283945501);
  EXCEPTION WHEN lock_not_available THEN
    -- Waited past the caller's lock_timeout: take its command back, so that a command reported
    -- busy appends nothing. A sequencer run that has taken it into a batch holds its rows locked
    -- until it commits; this waits for that, and then the command is in the log.
    DELETE FROM events_staged s WHERE s.id = ANY(p_ids);
    IF FOUND THEN
      -- Withdrawn: one row of NULLs says so.
      RETURN QUERY SELECT NULL::TEXT, NULL::BIGINT, NULL::TEXT;
    ELSE
      RETURN QUERY SELECT e.id, e.seq, e.hash FROM events e WHERE e.id = ANY(p_ids) ORDER BY e.seq;
    END IF;
    RETURN;
  END;
  -- Read committed: each statement below sees what committed before it, the lock's holder's included.
  -- The caller's command sequenced meanwhile by the lock's previous holder: nothing to write, no
  -- commit to wait for. (Given no ids, the caller asks for everything staged to be sequenced.)
  IF NOT EXISTS (SELECT 1 FROM events_staged s WHERE cardinality(p_ids) = 0 OR s.id = ANY(p_ids)) THEN
    RETURN QUERY SELECT e.id, e.seq, e.hash FROM events e WHERE e.id = ANY(p_ids) ORDER BY e.seq;
    RETURN;
  END IF;
  SELECT e.seq, e.hash INTO head_seq, head_hash FROM events e ORDER BY e.seq DESC LIMIT 1;
  head_seq := COALESCE(head_seq, 0);
  head_hash := COALESCE(head_hash, repeat('0', 64));
  INSERT INTO tally_sequencing(pid, xid) VALUES (pg_backend_pid(), txid_current())
    ON CONFLICT (pid) DO UPDATE SET xid = EXCLUDED.xid;
  PERFORM set_config('tally.sequencing', 'on', true);
  LOOP
    -- Whole commands only: a batch ends at a command's last event.
    SELECT array_agg(s.ticket ORDER BY s.ticket) INTO batch FROM events_staged s
    WHERE s.command IN (SELECT f.command FROM (SELECT t.command, min(t.ticket) AS first FROM events_staged t GROUP BY t.command
                                               ORDER BY first LIMIT 1000) f);
    EXIT WHEN batch IS NULL;
    -- Locked until this transaction ends: a writer taking its command back waits for it.
    PERFORM 1 FROM events_staged s WHERE s.ticket = ANY(batch) FOR UPDATE;
    refused := '{}';
    LOOP
      SELECT array_agg(DISTINCT b.command) INTO more FROM (
        SELECT s.command, s.stream, s.version, s.id, row_number() OVER (PARTITION BY s.stream ORDER BY s.ticket) AS nth
        FROM events_staged s WHERE s.ticket = ANY(batch) AND s.command <> ALL(refused)) b
      WHERE b.version <> COALESCE((SELECT max(e.version) FROM events e WHERE e.stream = b.stream), 0) + b.nth
         OR EXISTS (SELECT 1 FROM events e WHERE e.id = b.id);
      EXIT WHEN more IS NULL;
      -- A refused command no longer counts before the later events of its streams: check again.
      refused := refused || more;
    END LOOP;
    tickets := '{}';
    seqs := '{}';
    hashes := '{}';
    FOR ev IN SELECT * FROM events_staged s WHERE s.ticket = ANY(batch) AND s.command <> ALL(refused) ORDER BY s.ticket LOOP
      head_seq := head_seq + 1;
      head_hash := tally_event_hash(head_hash, head_seq, ev.id, ev.stream, ev.version, ev.type, ev.schema,
                                    ev.data, ev.recorded_at, ev.actor, ev.command);
      tickets := tickets || ev.ticket;
      seqs := seqs || head_seq;
      hashes := hashes || head_hash;
    END LOOP;
    INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash, role)
    SELECT x.seq, s.id, s.stream, s.version, s.type, s.schema, s.data, s.recorded_at, s.actor, s.command, x.hash, s.role
    FROM unnest(tickets, seqs, hashes) AS x(ticket, seq, hash) JOIN events_staged s ON s.ticket = x.ticket
    ORDER BY x.seq;
    DELETE FROM events_staged s WHERE s.ticket = ANY(batch);
    EXIT WHEN cardinality(p_ids) > 0 AND NOT EXISTS (SELECT 1 FROM events_staged s WHERE s.id = ANY(p_ids));
  END LOOP;
  PERFORM set_config('tally.sequencing', '', true);
  DELETE FROM tally_sequencing WHERE pid = pg_backend_pid();
  RETURN QUERY SELECT e.id, e.seq, e.hash FROM events e WHERE e.id = ANY(p_ids) ORDER BY e.seq;
END;
$$;

REVOKE ALL ON TABLE events_staged, tally_sequencing FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_envelope_problem(TEXT, TEXT, TEXT, TEXT, TEXT, INTEGER) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_content_problem(TEXT, TEXT, BIGINT, TEXT, TEXT) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_event_hash(TEXT, BIGINT, TEXT, TEXT, INTEGER, TEXT, INTEGER, TEXT, BIGINT, TEXT, TEXT) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_events_staged_before_insert() FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_sequence(TEXT[]) FROM PUBLIC;

-- Every function finds tally's tables in their own schema (as in migrations 5 and 6), and the
-- roles that may append already may stage and sequence (new writers get the grants the guide lists).
DO $$
DECLARE
  home TEXT := (SELECT quote_ident(nspname) FROM pg_namespace WHERE oid = (SELECT relnamespace FROM pg_class WHERE oid = 'events'::regclass));
  owner OID := (SELECT relowner FROM pg_class WHERE oid = 'events'::regclass);
  signature TEXT;
  writer TEXT;
BEGIN
  FOREACH signature IN ARRAY ARRAY[
    'tally_envelope_problem(TEXT, TEXT, TEXT, TEXT, TEXT, INTEGER)',
    'tally_content_problem(TEXT, TEXT, BIGINT, TEXT, TEXT)',
    'tally_event_hash(TEXT, BIGINT, TEXT, TEXT, INTEGER, TEXT, INTEGER, TEXT, BIGINT, TEXT, TEXT)',
    'tally_events_staged_before_insert()',
    'tally_events_before_insert()',
    'tally_sequence(TEXT[])'
  ] LOOP
    EXECUTE 'ALTER FUNCTION ' || signature || ' SET search_path = ' || home || ', pg_temp';
  END LOOP;
  FOR writer IN
    SELECT quote_ident(rolname) FROM pg_roles
    WHERE oid <> owner AND NOT rolsuper AND has_table_privilege(oid, 'events', 'INSERT')
  LOOP
    EXECUTE 'GRANT INSERT ON events_staged TO ' || writer;
    EXECUTE 'GRANT EXECUTE ON FUNCTION tally_sequence(TEXT[]) TO ' || writer;
  END LOOP;
END;
$$;
-- Index probes only (see migration 5). With sequential scans off, a scan that has no index to
-- use (the sequencer's of the small staging table) is costed past jit_above_cost, and compiling it
-- with LLVM took 0.3-0.5 s per call here: no JIT for these functions.
ALTER FUNCTION tally_events_before_insert() SET enable_seqscan = off;
ALTER FUNCTION tally_events_before_insert() SET jit = off;
ALTER FUNCTION tally_sequence(TEXT[]) SET enable_seqscan = off;
ALTER FUNCTION tally_sequence(TEXT[]) SET jit = off;
