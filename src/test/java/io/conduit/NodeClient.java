package io.conduit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the real npm clients in {@code src/test/js} with Node.js and returns the JSON summary it prints as its
 * last line; fails the test, with the client's stderr, when it does not exit 0.
 */
public final class NodeClient {

    private NodeClient() {
    }

    public static JsonNode run(String script, int maxSeconds, String... args) throws Exception {
        File out = File.createTempFile("node-client", ".out");
        File err = File.createTempFile("node-client", ".err");
        List<String> command = new ArrayList<>(List.of("node", "src/test/js/" + script));
        command.addAll(List.of(args));
        Process node;
        try {
            // output to files rather than pipes: a chatty client can never block on a full pipe
            node = new ProcessBuilder(command).directory(new File(".")).redirectOutput(out).redirectError(err).start();
        } catch (IOException e) {
            throw new AssertionError("Node.js (node, 20 or newer) is needed for this test and was not found: " + e.getMessage(), e);
        }
        // a bound against a hung process, not a timing assertion
        boolean finished = node.waitFor(maxSeconds, TimeUnit.SECONDS);
        if (!finished) {
            node.destroyForcibly();
        }
        String stdout = Files.readString(out.toPath()).strip();
        String stderr = Files.readString(err.toPath()).strip();
        out.delete();
        err.delete();
        assertThat(finished).as("node finished; stderr: %s", stderr).isTrue();
        assertThat(node.exitValue()).as("node's exit code; stderr: %s", stderr).isZero();
        return new ObjectMapper().readTree(stdout.substring(stdout.lastIndexOf('\n') + 1));
    }
}
