-- A watcher reads what each replica relayed since it last looked: one range per writing process, whose rows commit in
-- id order (a process has one insert on its way at a time), so its cost follows the new rows, not the watched threads.
CREATE INDEX conduit_event_frames_origin ON conduit_event_frames (origin, id);
