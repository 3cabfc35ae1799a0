package io.conduit.http.answer;

import io.conduit.runs.ServingConfig;
import io.conduit.runs.StreamMode;
import io.conduit.runs.events.EventView;
import io.conduit.runs.events.RunEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;

/**
 * A run's answer as a format of the threads' logs, for the doors that answer with a run's final text (chat
 * completions, MCP): its pieces ({@link RunReading}), translated once for the requests that read it and framed by each
 * door (read whole by {@link RunAnswers}). Replayed as long as the classic stream. Its name stays {@code completions},
 * the door it was first written for.
 */
@ApplicationScoped
public class AnswerFormat {

    public static final String NAME = "completions";

    /** The stream modes a run read as an answer asks for: its tokens (text as it comes) and its updates (usage, whole messages). */
    public static final List<StreamMode> STREAM_MODES = List.of(StreamMode.MESSAGES_TUPLE, StreamMode.UPDATES);

    /** A replay of a run whose entries were dropped to bound memory fails the answer, which can no longer be whole. */
    static final EventView.DroppedNotice NOTICE = (runId, through) -> new RunEvent(through, runId, RunReading.FAILED, "",
            "EventsDropped: the events of run " + runId + " up to " + through + " were dropped to bound memory; read the run's state instead");

    @Produces
    @Singleton
    EventView answers(ServingConfig config) {
        return view(config.streamRetention());
    }

    /** The format, its frames replayed for {@code retention} after their run's end. */
    public static EventView view(Duration retention) {
        return new EventView(NAME, RunReading::new, NOTICE, retention);
    }
}
