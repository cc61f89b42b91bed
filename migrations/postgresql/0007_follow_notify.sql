-- log --follow: every statement that appends events wakes the clients that LISTEN on the channel
-- tally_events, once the transaction commits (the server delivers nothing for a rolled-back one).
-- The notification carries no payload: a follower reads the new events with its own grants, and
-- a role that can LISTEN but not SELECT learns only that something was appended. Any role may
-- NOTIFY the channel itself; a follower woken by such a fake notification finds nothing new.
CREATE FUNCTION tally_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tally_events', '');
  RETURN NULL;
END;
$$;
REVOKE ALL ON FUNCTION tally_events_notify() FROM PUBLIC;
ALTER FUNCTION tally_events_notify() SET search_path = pg_catalog, pg_temp;

CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION tally_events_notify();
