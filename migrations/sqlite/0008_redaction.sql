-- Redaction (tally redact): the one change ever made to a stored event. Erasing a value replaces
-- it in `data` by its salted commitment, which leaves the event's chain link exactly as it was
-- (see EventHash.swift and Commitment.swift). The UPDATE is allowed only for a row whose seq the
-- redacting transaction has put into redaction_pass (and removes again before it commits), and
-- only for `data`: every other column must stay what it was.
CREATE TABLE redaction_pass(seq INTEGER PRIMARY KEY);

DROP TRIGGER events_reject_update;
CREATE TRIGGER events_reject_update BEFORE UPDATE ON events
WHEN NOT EXISTS (SELECT 1 FROM redaction_pass WHERE seq = OLD.seq)
  OR NEW.seq IS NOT OLD.seq OR NEW.id IS NOT OLD.id OR NEW.stream IS NOT OLD.stream
  OR NEW.version IS NOT OLD.version OR NEW.type IS NOT OLD.type OR NEW.schema IS NOT OLD.schema
  OR NEW.recorded_at IS NOT OLD.recorded_at OR NEW.actor IS NOT OLD.actor
  OR NEW.command IS NOT OLD.command OR NEW.hash IS NOT OLD.hash
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed');
END;
