package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.port.ToolBox;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.agent.port.ToolSpec;
import io.conduit.agent.port.UserMemory;
import io.conduit.persistence.PostgresUserMemory;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The service's tool box as the agent gets it: the built-in beans, an HTTP tool and an MCP server declared in config
 * (quoted names, headers, the redaction list), and user memory in Postgres (the %test store).
 */
@QuarkusTest
@WithTestResource(ToolServices.class)
class ToolBoxWiringTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    ToolBox tools;

    @Inject
    UserMemory memory;

    ToolOutcome call(String user, String tool, String arguments) {
        return tools.call(new ToolCall("c1", tool, arguments), new ToolScope("thread-" + user, user, Map.of()))
                .await().atMost(WAIT);
    }

    @Test
    void theToolBoxIsTheExecutorWithEveryKindOfTool() {
        assertThat(tools).isInstanceOf(ToolExecutor.class);
        // the code's tools by name (the container's order of beans changes between builds: the prompt must not), then
        // the configured ones in their configured order
        assertThat(tools.specs()).extracting(ToolSpec::name)
                .containsExactly("get_current_time", "recall", "remember", "course-guide", "add", "divide");
        assertThat(tools.specs()).allSatisfy(s -> assertThat(s.parametersSchema()).doesNotContain("user_id"));
    }

    @Test
    void theConfiguredHttpToolIsCalledAndItsCredentialAndThePatternsAreRedacted() {
        ToolOutcome o = call("ada", "course-guide", "{\"topic\":\"linear algebra\"}");
        assertThat(o.error()).isFalse();
        assertThat(o.content()).isEqualTo("HTTP 200\nguide for /guides/linear%20algebra of [REDACTED], auth=[REDACTED]");
    }

    /** A credential the service echoes back, in an answer and in a failure, reaches neither the outcome nor any log line. */
    @Test
    void aPlantedSecretReachesNeitherTheModelNorTheLog() {
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        java.util.logging.Logger ours = java.util.logging.Logger.getLogger("io.conduit");
        java.util.logging.Level level = ours.getLevel();
        List<String> lines = new CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                lines.add(r.getMessage() + " " + java.util.Arrays.toString(r.getParameters()) + " " + r.getThrown());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(java.util.logging.Level.ALL);
        root.addHandler(capture);
        ours.setLevel(java.util.logging.Level.ALL); // the redacted failure is logged at debug
        try {
            ToolOutcome ok = call("ada", "course-guide", "{\"topic\":\"secrets\"}");
            ToolOutcome failed = call("ada", "course-guide", "{\"topic\":\"broken\"}");
            assertThat(failed.error()).isTrue();
            assertThat(List.of(ok.content(), failed.content())).allSatisfy(c -> assertThat(c).contains("[REDACTED]").doesNotContain("wiring-secret"));
        } finally {
            ours.setLevel(level);
            root.removeHandler(capture);
        }
        assertThat(lines).as("the tool's failure was logged").anyMatch(l -> l.contains("HTTP 500"));
        assertThat(lines).noneMatch(l -> l.contains("wiring-secret"));
    }

    @Test
    void theMcpServersToolsAreCalledThroughTheToolBox() {
        assertThat(call("ada", "add", "{\"a\":40,\"b\":2}").content()).isEqualTo("42");
    }

    @Test
    void rememberWritesThePostgresMemoryOfTheRunsUser() {
        assertThat(memory).isInstanceOf(PostgresUserMemory.class);
        String user = "wiring-" + UUID.randomUUID();
        assertThat(call(user, "remember", "{\"key\":\"programme\",\"value\":\"MSc Physics\",\"user_id\":\"someone-else\"}").content())
                .isEqualTo("remembered programme");
        assertThat(memory.get(user, "programme").await().atMost(WAIT)).contains("MSc Physics");
        assertThat(call(user, "recall", "{\"key\":\"programme\"}").content()).isEqualTo("MSc Physics");
    }
}
