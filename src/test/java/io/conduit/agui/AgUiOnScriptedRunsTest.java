package io.conduit.agui;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.runs.ProtocolEventLogs;
import io.conduit.runs.ProtocolRunFollower;
import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;
import io.conduit.runs.RunEventLogs;
import io.conduit.runs.ThreadLog;
import io.conduit.runs.ThreadLogs;
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
 * AG-UI's output for each scripted run ({@link ScriptedRuns}), one event's JSON per line, compared with the recorded
 * output in src/test/resources/agui/scripted (run with {@code -Dagui.record=true} to record it again).
 */
class AgUiOnScriptedRunsTest {

    private static final Path RECORDED = Path.of("src/test/resources/agui/scripted");

    static Stream<ScriptedRuns.Script> scripts() {
        return ScriptedRuns.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void theRunsAgUiEventsAreTheRecordedOnes(ScriptedRuns.Script script) throws Exception {
        String got = String.join("\n", agUi(script)) + "\n";
        Path file = RECORDED.resolve(script.name() + ".jsonl");
        if (Boolean.getBoolean("agui.record")) {
            Files.createDirectories(RECORDED);
            Files.writeString(file, got, StandardCharsets.UTF_8);
        }
        assertThat(got).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** The run's entries logged in order, its segment closed, read as an AG-UI client of the run reads them. */
    private static List<String> agUi(ScriptedRuns.Script script) {
        ThreadLogs logs = ThreadLogs.of(Duration.ofMinutes(10), Duration.ofMinutes(2), 1 << 20, 1 << 24, () -> 1_795_451_320_019L);
        ProtocolEventLogs protocol = new ProtocolEventLogs(logs);
        ThreadLog log = logs.begin(ScriptedRuns.THREAD, ScriptedRuns.RUN);
        AgUiEvents events = new AgUiEvents(ScriptedRuns.THREAD, ScriptedRuns.RUN);
        List<String> out = new ArrayList<>();
        ProtocolRunFollower.follow(protocol, new RunEventLogs(logs), ScriptedRuns.run(), protocol.log(ScriptedRuns.THREAD).lastSeq(),
                new RunEventListener() {
                    @Override
                    public void onEvent(RunEvent e) {
                        events.on(e).forEach(event -> out.add(event.toString()));
                    }

                    @Override
                    public void onEnd() {
                    }
                });
        for (Object entry : script.entries()) {
            log.append(ScriptedRuns.RUN, entry);
        }
        log.end(ScriptedRuns.RUN, 1_795_451_320_019L);
        return out;
    }
}
