package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Vert.x's blocked-thread checker warns while its tests run: nothing may block an event
 * loop. The test profile makes the checker strict ({@code quarkus.vertx.max-event-loop-execute-time}); this reads
 * its log ({@code io.vertx.core.impl.BlockedThreadChecker}, through the JBoss log manager that Quarkus installs as
 * {@code java.util.logging}'s). Register it with {@code @RegisterExtension static}, and call {@link #watch()} once
 * the paths under test have been taken once: a JVM that loads and links classes for the first time (a first
 * database connection, a first lambda) may take longer than the threshold on a busy machine, once, which is not
 * what the check is about.
 */
public final class BlockedThreadWarnings implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    static final String LOGGER = "io.vertx.core.impl.BlockedThreadChecker";

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(r.getMessage() == null ? String.valueOf(r.getParameters()) : r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Logger logger;

    @Override
    public void beforeAll(ExtensionContext context) {
        logger = Logger.getLogger(LOGGER);
    }

    /** From now on, any warning fails the test that runs. */
    public void watch() {
        logger.removeHandler(handler);
        logger.addHandler(handler);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        assertThat(warnings).as("Vert.x's blocked-thread checker warned: an event loop was blocked").isEmpty();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        logger.removeHandler(handler);
    }

    /** What it caught so far (for its own test). */
    List<String> warnings() {
        return warnings;
    }
}
