package io.conduit.agui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.Collecting;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.TextDelta;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ServiceLogs;
import io.conduit.runs.events.ThreadLogs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * AG-UI's output for each scripted run ({@link ScriptedRuns}), one event's JSON per line, compared with the output
 * recorded in src/test/resources/agui/scripted from the translation this one replaced (which parsed the thread
 * protocol's frames); run with {@code -Dagui.record=true} to record it again.
 */
class AgUiOnScriptedRunsTest {

    private static final Path RECORDED = Path.of("src/test/resources/agui/scripted");
    private static final long NOW = 1_795_451_320_019L;

    static Stream<ScriptedRuns.Script> scripts() {
        return ScriptedRuns.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void theRunsAgUiEventsAreTheRecordedOnes(ScriptedRuns.Script script) throws Exception {
        String got = String.join("\n", data(live(script))) + "\n";
        Path file = RECORDED.resolve(script.name() + ".jsonl");
        if (Boolean.getBoolean("agui.record")) {
            Files.createDirectories(RECORDED);
            Files.writeString(file, got, StandardCharsets.UTF_8);
        }
        assertThat(got).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** A client that subscribes once the run has ended gets it translated again: the same frames, byte for byte. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void aRunReadAfterItsEndIsTranslatedAgainToTheSameFrames(ScriptedRuns.Script script) {
        ThreadLogs logs = logs();
        ThreadLog log = logs.begin(ScriptedRuns.THREAD, ScriptedRuns.RUN);
        script.entries().forEach(entry -> log.append(ScriptedRuns.RUN, entry));
        log.end(ScriptedRuns.RUN, NOW);
        List<RunEvent> replayed = follow(logs);
        assertThat(replayed).isEqualTo(live(script));
    }

    /**
     * Each frame is one AG-UI event's JSON on one line, its type the frame's mode, written as SSE as it is; a text or
     * argument delta says where its text lies, escaped as in the JSON, so that a slow client's deltas merge.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void eachFrameIsOneEventWithItsTypeAsModeAndItsDeltasLocated(ScriptedRuns.Script script) throws Exception {
        for (RunEvent e : live(script)) {
            JsonNode event = JsonCodec.MAPPER.readTree(e.data());
            assertThat(e.mode()).isEqualTo(event.get("type").asText());
            assertThat(e.data()).doesNotContain("\n");
            assertThat(AgUiFormat.sse(e)).isEqualTo("data: " + e.data() + "\n\n");
            TextDelta d = e.text();
            if (e.mode().endsWith("_CONTENT") || e.mode().equals("TOOL_CALL_ARGS")) {
                assertThat(d).as(e.data()).isNotNull();
                assertThat(e.data().substring(d.start(), d.end()))
                        .isEqualTo(new String(JsonStringEncoder.getInstance().quoteAsString(event.get("delta").asText())));
            } else {
                assertThat(d).as(e.data()).isNull();
            }
        }
    }

    /** The run's entries logged in order, its segment then closed, as a client that subscribed first reads them. */
    private static List<RunEvent> live(ScriptedRuns.Script script) {
        ThreadLogs logs = logs();
        ThreadLog log = logs.begin(ScriptedRuns.THREAD, ScriptedRuns.RUN);
        List<RunEvent> out = follow(logs);
        script.entries().forEach(entry -> log.append(ScriptedRuns.RUN, entry));
        log.end(ScriptedRuns.RUN, NOW);
        return out;
    }

    private static ThreadLogs logs() {
        Duration retention = Duration.ofMinutes(2);
        return ServiceLogs.of(retention, retention, List.of(AgUiFormat.view(retention)), 1 << 20, 1 << 24, () -> NOW);
    }

    /** What the transports get of the run (AgUiRuns#follow), in the frames' order; filled as they come. */
    private static List<RunEvent> follow(ThreadLogs logs) {
        List<RunEvent> out = new ArrayList<>();
        AgUiRunFollower.follow(logs.log(AgUiFormat.NAME, ScriptedRuns.THREAD), ScriptedRuns.RUN, Collecting.into(out));
        return out;
    }

    private static List<String> data(List<RunEvent> frames) {
        return frames.stream().map(RunEvent::data).toList();
    }
}
