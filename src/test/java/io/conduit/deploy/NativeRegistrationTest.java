package io.conduit.deploy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.kernel.JsonCodec;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.test.junit.QuarkusTest;
import java.io.File;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * What a native image needs registered is registered: every class of ours that our Jackson mapper maps by
 * reflection is in {@code io.conduit.nativeimage.JsonTypes}. {@link JacksonTypeRecorder} sees which classes those
 * are while this test drives a turn of each assistant (and while any test before it in the same JVM ran).
 */
@QuarkusTest
class NativeRegistrationTest {

    /** A type of the test's own, never registered, and never to be. */
    record Unregistered(String name, int count) {
    }

    @Test
    void everyTypeOurMapperMapsIsRegistered() {
        turns();
        Set<String> seen = JacksonTypeRecorder.seen();
        assertThat(seen).as("the recorder saw the state of the turns").contains("io.conduit.agent.message.UserMessage");
        assertThat(missing(seen, registered())).as("classes our mapper maps that io.conduit.nativeimage.JsonTypes does"
                + " not register; add them there").isEmpty();
    }

    /**
     * The check can fail: with a registration one class short, that class is reported; and a test's own type, mapped
     * here, is left out of the record as no concern of the app's image.
     */
    @Test
    void aMissingRegistrationIsReported() {
        turns();
        Set<String> shortOfOne = new TreeSet<>(registered());
        shortOfOne.remove("io.conduit.agent.message.UserMessage");
        assertThat(missing(JacksonTypeRecorder.seen(), shortOfOne)).containsExactly("io.conduit.agent.message.UserMessage");

        JsonCodec<Unregistered> codec = JsonCodec.of(Unregistered.class);
        assertThat(codec.decode(codec.encode(new Unregistered("a", 1)))).isEqualTo(new Unregistered("a", 1));
        assertThat(JacksonTypeRecorder.seen()).doesNotContain(Unregistered.class.getName());
    }

    static Set<String> missing(Set<String> seen, Set<String> registered) {
        Set<String> missing = new TreeSet<>(seen);
        missing.removeAll(registered);
        return missing;
    }

    static Set<String> registered() {
        try {
            Class<?> types = Class.forName("io.conduit.nativeimage.JsonTypes");
            RegisterForReflection r = types.getAnnotation(RegisterForReflection.class);
            Set<String> names = new TreeSet<>(Arrays.asList(r.classNames()));
            Arrays.stream(r.targets()).map(Class::getName).forEach(names::add);
            return names;
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /** A turn of each assistant, with what each needs (a user, a subject, a CSV file). */
    private static void turns() {
        wait("nat-agent", """
                {"assistant_id": "agent", "input": {"messages": [{"role": "user", "content": "Please plan my week"}]},
                 "config": {"configurable": {"user_id": "ada"}}}""");
        wait("nat-tutor", """
                {"assistant_id": "tutor", "input": {"messages": [{"role": "user", "content": "quiz me on photosynthesis"}],
                 "subject": "biology"}}""");
        wait("nat-assistant", """
                {"assistant_id": "assistant", "input": {"messages": [{"role": "user", "content": "Remember that my favourite colour is green"}]},
                 "config": {"configurable": {"user_id": "ada"}}}""");
        wait("nat-request", """
                {"assistant_id": "request", "input": {"input": {"message": "find the invoice and tell me when it is due", "language": "English"}}}""");
        thread("nat-analyst");
        given().multiPart("file", new File("docs/blueprints/sales.csv")).post("/threads/nat-analyst/files").then().statusCode(201);
        wait("nat-analyst", """
                {"assistant_id": "analyst", "input": {"messages": [{"role": "user", "content": "What are the total units by region in sales.csv?"}]}}""");
    }

    private static void thread(String id) {
        given().contentType("application/json").body("{\"thread_id\": \"" + id + "\", \"if_exists\": \"do_nothing\"}")
                .post("/threads").then().statusCode(200);
    }

    private static void wait(String thread, String run) {
        if (!thread.equals("nat-analyst")) {
            thread(thread);
        }
        given().contentType("application/json").body(run).post("/threads/" + thread + "/runs/wait").then().statusCode(200);
    }
}
