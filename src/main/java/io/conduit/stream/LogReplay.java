package io.conduit.stream;

import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadEventLog;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** The events a thread's log holds after a seq, read once (the log replays them inside the call), not followed. */
final class LogReplay {

    private LogReplay() {
    }

    static List<RunEvent> after(ThreadEventLog log, long afterSeq, Predicate<RunEvent> wanted) {
        List<RunEvent> out = new ArrayList<>();
        ThreadEventLog.Subscription once = log.subscribeThread(afterSeq, new RunEventListener() {
            @Override
            public void onEvent(RunEvent e) {
                if (wanted.test(e)) {
                    out.add(e);
                }
            }

            @Override
            public void onEnd() {
            }
        });
        once.cancel();
        return out;
    }
}
