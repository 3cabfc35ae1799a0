package io.conduit.stream;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Frames no SDK sends, to both WebSocket endpoints (the thread protocol's and AG-UI's), from a raw client (npm ws,
 * src/test/js/bad-frames-ws.mjs): a text frame that is not UTF-8, whole or split across fragments, closes the socket
 * with 1007 (RFC 6455) rather than being read with replacement characters; a command whose JSON holds NUL or a lone
 * surrogate is an error naming the field, and the socket stays open. Neither starts a run or creates the thread.
 */
@QuarkusTest
class BadFramesTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private String run(String scenario, String thread) throws Exception {
        return NodeClient.run("bad-frames-ws.mjs", 60, "http://localhost:" + port, scenario, thread).toString();
    }

    private static void nothingWritten(String thread) {
        given().when().get("/threads/{t}", thread).then().statusCode(404);
    }

    @Test
    void invalidUtf8ClosesTheThreadProtocolsSocketWith1007() throws Exception {
        String thread = "frames-" + UUID.randomUUID();
        assertThat(run("protocol-utf8", thread)).contains("UTF-8");
        nothingWritten(thread);
    }

    @Test
    void invalidUtf8ClosesAgUisSocketWith1007() throws Exception {
        String thread = "frames-" + UUID.randomUUID();
        assertThat(run("agui-utf8", thread)).contains("UTF-8");
        nothingWritten(thread);
    }

    @Test
    void unstorableTextInACommandIsAnErrorAndTheSocketStaysOpen() throws Exception {
        String thread = "frames-" + UUID.randomUUID();
        run("protocol-text", thread);
        run("agui-text", thread);
        nothingWritten(thread);
    }
}
