package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged app ({@code target/quarkus-app}, built before the tests) in prod mode with no store chosen refuses to
 * start and says what to set, instead of keeping threads in memory and losing them at the next restart.
 */
class PackagedAppStoreTest {

    private static final Path APP = Path.of("target", "quarkus-app", "quarkus-run.jar");

    @Test
    void withNoStoreChosenTheAppRefusesToStartAndSaysWhatToSet() throws Exception {
        assertThat(APP).as("the packaged app; ./mvnw test builds it before the tests (or ./mvnw quarkus:build)").exists();
        Path log = Path.of("target", "packaged-no-store.log");
        ProcessBuilder builder = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Dquarkus.http.port=0", "-Dquarkus.http.host=127.0.0.1", "-Dconduit.llm.provider=simulated", "-jar", APP.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("CONDUIT_CHECKPOINTER_"));
        Process app = builder.start();
        try {
            assertThat(app.waitFor(60, TimeUnit.SECONDS)).as("the app exits by itself").isTrue();
            String output = Files.readString(log);
            assertThat(app.exitValue()).as(output).isNotZero();
            assertThat(output).contains("no store chosen").contains("conduit.checkpointer.store=postgres")
                    .contains("CONDUIT_CHECKPOINTER_STORE").contains("conduit.checkpointer.store=memory");
        } finally {
            app.destroyForcibly();
        }
    }
}
