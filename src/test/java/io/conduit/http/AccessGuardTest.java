package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every door with API keys on: a thread's and an assistant's doors, on every transport, answer its owner and an admin,
 * 404 to another principal (as if it did not exist), 401 to a caller without a key; searches, counts and lists hold
 * only the caller's; the server, not the client, names the run's user. On a build without authentication every
 * 401 and 404 here is a 200.
 */
@QuarkusTest
@TestProfile(ApiKeyAuth.class)
class AccessGuardTest {

    /** The callers of every case: the owner, another user, an admin, and nobody (no key). */
    enum Caller { OWNER, OTHER, ADMIN, ANONYMOUS }

    /** A request on a thread {t} (with a finished run {r}) or an assistant {a} of the owner's. */
    record Door(String method, String path, String body, Map<String, String> headers) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private static final String RUN = "{\"assistant_id\":\"agent\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}}";

    private static Principals principals;

    /** The test's principals, each with a key from the admin API. */
    record Principals(String owner, String ownerKey, String other, String otherKey, String adminKey) {
    }

    static synchronized Principals principals() {
        if (principals == null) {
            String suffix = UUID.randomUUID().toString().substring(0, 8);
            String owner = "alice-" + suffix;
            String other = "bob-" + suffix;
            principals = new Principals(owner, ApiKeyAuth.createKey(owner, false), other, ApiKeyAuth.createKey(other, false),
                    ApiKeyAuth.createKey("carol-" + suffix, true));
        }
        return principals;
    }

    static RequestSpecification as(Caller caller) {
        Principals p = principals();
        RequestSpecification r = given();
        return switch (caller) {
            case OWNER -> r.header("x-api-key", p.ownerKey());
            // the other way the SDKs send a key
            case OTHER -> r.header("Authorization", "Bearer " + p.otherKey());
            case ADMIN -> r.header("x-api-key", p.adminKey());
            case ANONYMOUS -> r;
        };
    }

    /** A thread of the owner's with one finished run: {thread id, run id}. */
    static String[] ownersThread() {
        String thread = "auth-" + UUID.randomUUID();
        as(Caller.OWNER).contentType("application/json").body(Map.of("thread_id", thread)).post("/threads").then().statusCode(200);
        String run = as(Caller.OWNER).contentType("application/json").body(RUN).post("/threads/{t}/runs", thread)
                .then().statusCode(200).extract().path("run_id");
        as(Caller.OWNER).get("/threads/{t}/runs/{r}/join", thread, run).then().statusCode(200);
        return new String[]{thread, run};
    }

    static String ownersAssistant() {
        return as(Caller.OWNER).contentType("application/json").body(Map.of("graph_id", "agent", "name", "mine"))
                .post("/assistants").then().statusCode(200).extract().path("assistant_id");
    }

    static Stream<Door> threadDoors() {
        String chat = "{\"id\":\"{t}\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"hi\"}]}]}";
        String agUi = "{\"threadId\":\"{t}\",\"runId\":\"r1\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"tools\":[],\"context\":[],\"state\":{},\"forwardedProps\":{}}";
        return Stream.of(
                door("GET", "/threads/{t}"),
                door("PATCH", "/threads/{t}", "{\"metadata\":{\"k\":1}}"),
                door("DELETE", "/threads/{t}"),
                door("POST", "/threads/{t}/copy"),
                door("GET", "/threads/{t}/state"),
                door("POST", "/threads/{t}/history", "{}"),
                door("GET", "/threads/{t}/runs"),
                door("POST", "/threads/{t}/runs", RUN),
                door("GET", "/threads/{t}/runs/{r}"),
                door("GET", "/threads/{t}/runs/{r}/join"),
                door("GET", "/threads/{t}/runs/{r}/stream"),
                door("POST", "/threads/{t}/runs/wait", RUN),
                door("POST", "/threads/{t}/runs/stream", RUN),
                door("POST", "/threads/{t}/commands", "{\"id\":1,\"method\":\"state.get\",\"params\":{}}"),
                door("GET", "/threads/{t}/files"),
                door("POST", "/ai-sdk/chat", chat),
                door("GET", "/ai-sdk/chat/{t}/stream"),
                door("POST", "/ag-ui", agUi),
                new Door("POST", "/v1/chat/completions", "{\"model\":\"agent\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                        Map.of("X-Conduit-Thread", "{t}")));
    }

    static Stream<Door> assistantDoors() {
        return Stream.of(
                door("GET", "/assistants/{a}"),
                door("PATCH", "/assistants/{a}", "{\"metadata\":{\"k\":1}}"),
                door("DELETE", "/assistants/{a}"),
                door("POST", "/assistants/{a}/versions", "{}"),
                door("POST", "/assistants/{a}/latest", "{\"version\":1}"),
                door("GET", "/assistants/{a}/graph"),
                door("GET", "/assistants/{a}/schemas"),
                door("GET", "/assistants/{a}/subgraphs"),
                door("POST", "/runs/wait", "{\"assistant_id\":\"{a}\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}}"),
                door("GET", "/v1/models/{a}"));
    }

    @ParameterizedTest
    @MethodSource("threadDoors")
    void aThreadsDoorsOpenToItsOwnerAndAnAdminOnly(Door door) {
        String[] t = ownersThread();
        assertUnauthenticated(call(door, Caller.ANONYMOUS, t[0], t[1], null));
        assertNotFound(call(door, Caller.OTHER, t[0], t[1], null));
        assertAnswered(call(door, Caller.OWNER, t[0], t[1], null), "the owner");
        String[] u = ownersThread();
        assertAnswered(call(door, Caller.ADMIN, u[0], u[1], null), "an admin");
    }

    @ParameterizedTest
    @MethodSource("assistantDoors")
    void anAssistantsDoorsOpenToItsOwnerAndAnAdminOnly(Door door) {
        String a = ownersAssistant();
        assertUnauthenticated(call(door, Caller.ANONYMOUS, null, null, a));
        assertNotFound(call(door, Caller.OTHER, null, null, a));
        assertAnswered(call(door, Caller.OWNER, null, null, a), "the owner");
        String b = ownersAssistant();
        assertAnswered(call(door, Caller.ADMIN, null, null, b), "an admin");
    }

    @Test
    void searchesAndCountsHoldOnlyTheCallersThreads() {
        String[] t = ownersThread();
        Map<String, Object> all = Map.of("limit", 1000);
        assertThat(threadIds(Caller.OWNER, all)).contains(t[0]);
        assertThat(threadIds(Caller.OTHER, all)).doesNotContain(t[0]);
        assertThat(threadIds(Caller.ADMIN, all)).contains(t[0]);
        // naming the owner in the filter does not widen the other's search
        assertThat(threadIds(Caller.OTHER, Map.of("metadata", Map.of("owner", principals().owner())))).isEmpty();
        assertThat(count(Caller.OTHER, "/threads/count", Map.of("metadata", Map.of("owner", principals().owner())))).isZero();
        assertThat(count(Caller.OWNER, "/threads/count", Map.of())).isPositive();
    }

    @Test
    void assistantListsHoldTheSystemOnesAndTheCallersOwn() {
        String a = ownersAssistant();
        List<String> owners = as(Caller.OWNER).contentType("application/json").body(Map.of("limit", 1000)).post("/assistants/search")
                .then().statusCode(200).extract().path("assistant_id");
        List<String> others = as(Caller.OTHER).contentType("application/json").body(Map.of("limit", 1000)).post("/assistants/search")
                .then().statusCode(200).extract().path("assistant_id");
        assertThat(owners).contains(a);
        assertThat(others).doesNotContain(a).isNotEmpty(); // the served graphs' assistants are everyone's
        List<String> models = as(Caller.OTHER).get("/v1/models").then().statusCode(200).extract().path("data.id");
        assertThat(models).contains("agent").doesNotContain(a);
        assertThat(as(Caller.OWNER).get("/v1/models").then().statusCode(200).extract().<List<String>>path("data.id")).contains(a);
    }

    @Test
    void theServerNamesTheRunsUserNotTheClient() {
        String thread = "auth-" + UUID.randomUUID();
        String body = "{\"assistant_id\":\"agent\",\"if_not_exists\":\"create\",\"config\":{\"configurable\":{\"user_id\":\""
                + principals().other() + "\"}},\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}}";
        String run = as(Caller.OWNER).contentType("application/json").body(body).post("/threads/{t}/runs", thread)
                .then().statusCode(200).extract().path("run_id");
        assertThat(as(Caller.OWNER).get("/threads/{t}/runs/{r}", thread, run).then().statusCode(200)
                .extract().<String>path("kwargs.config.configurable.user_id")).isEqualTo(principals().owner());
        // the thread the run created is the caller's
        assertThat(as(Caller.OWNER).get("/threads/{t}", thread).then().statusCode(200).extract().<String>path("metadata.owner"))
                .isEqualTo(principals().owner());
        assertNotFound(as(Caller.OTHER).get("/threads/{t}", thread));
    }

    @Test
    void aRunOnAnotherPrincipalsThreadIdIsRefusedWhateverTheDoor() {
        String[] t = ownersThread();
        String ifNotExists = "{\"assistant_id\":\"agent\",\"if_not_exists\":\"create\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}}";
        assertNotFound(as(Caller.OTHER).contentType("application/json").body(ifNotExists).post("/threads/{t}/runs/wait", t[0]));
        // creating a thread of that id: taken
        assertThat(as(Caller.OTHER).contentType("application/json").body(Map.of("thread_id", t[0], "if_exists", "do_nothing"))
                .post("/threads").statusCode()).isEqualTo(409);
        // the owner's thread is as it was: one run
        assertThat(as(Caller.OWNER).get("/threads/{t}/runs", t[0]).then().statusCode(200).extract().<List<?>>path("$")).hasSize(1);
    }

    @Test
    void storeNamespacesUnderUsersAreTheirUsers() {
        Principals p = principals();
        Map<String, Object> item = Map.of("namespace", List.of("users", p.owner(), "notes"), "key", "k1", "value", Map.of("v", 1));
        as(Caller.OWNER).contentType("application/json").body(item).put("/store/items").then().statusCode(204);
        String ns = "users." + p.owner() + ".notes";
        as(Caller.OWNER).queryParam("namespace", ns).queryParam("key", "k1").get("/store/items").then().statusCode(200);
        as(Caller.ADMIN).queryParam("namespace", ns).queryParam("key", "k1").get("/store/items").then().statusCode(200);
        assertNotFound(as(Caller.OTHER).queryParam("namespace", ns).queryParam("key", "k1").get("/store/items"));
        assertNotFound(as(Caller.OTHER).contentType("application/json").body(item).put("/store/items"));
        assertNotFound(as(Caller.OTHER).contentType("application/json").body(Map.of("namespace", List.of("users", p.owner(), "notes"), "key", "k1"))
                .delete("/store/items"));
        assertUnauthenticated(given().queryParam("namespace", ns).queryParam("key", "k1").get("/store/items"));
        for (List<String> prefix : List.<List<String>>of(List.of(), List.of("users"), List.of("users", p.owner()))) {
            List<Object> seen = as(Caller.OTHER).contentType("application/json").body(Map.of("namespace_prefix", prefix, "limit", 1000))
                    .post("/store/items/search").then().statusCode(200).extract().path("items.namespace");
            assertThat(seen.stream().noneMatch(n -> ((List<?>) n).contains(p.owner()))).as("the other's search from %s", prefix).isTrue();
        }
        List<Object> own = as(Caller.OWNER).contentType("application/json").body(Map.of("namespace_prefix", List.of("users")))
                .post("/store/items/search").then().statusCode(200).extract().path("items.namespace");
        assertThat(own).contains(List.of("users", p.owner(), "notes"));
        List<Object> spaces = as(Caller.OTHER).contentType("application/json").body(Map.of("prefix", List.of("users"), "limit", 1000))
                .post("/store/namespaces").then().statusCode(200).extract().path("namespaces");
        assertThat(spaces.stream().noneMatch(n -> ((List<?>) n).contains(p.owner()))).isTrue();
    }

    @Test
    void everyDoorWantsAKeyButTheHealthChecksThePageAndTheServersDescription() {
        for (String[] d : new String[][]{{"POST", "/threads"}, {"POST", "/threads/search"}, {"POST", "/threads/count"},
                {"POST", "/assistants"}, {"POST", "/assistants/search"}, {"POST", "/runs"}, {"POST", "/runs/wait"},
                {"POST", "/runs/stream"}, {"GET", "/v1/models"}, {"POST", "/v1/chat/completions"}, {"POST", "/ag-ui"},
                {"POST", "/ai-sdk/chat"}, {"PUT", "/store/items"}, {"POST", "/store/items/search"}, {"POST", "/store/namespaces"},
                {"GET", "/threads/x/stream"}, {"POST", "/threads/x/stream/events"}, {"POST", "/threads/x/files"},
                {"POST", "/auth/ws-ticket"}, {"GET", "/admin/api-keys"}}) {
            assertUnauthenticated(given().contentType("application/json").body("{}").request(d[0], d[1]));
            assertUnauthenticated(given().header("x-api-key", "cdt_not-a-key").contentType("application/json").body("{}").request(d[0], d[1]));
        }
        given().get("/q/health/ready").then().statusCode(200);
        assertThat(given().get("/q/metrics").statusCode()).as("metrics open by default").isNotEqualTo(401);
        assertThat(given().header("Access-Control-Request-Method", "POST").header("Origin", "http://elsewhere.test")
                .options("/threads/search").statusCode()).as("a CORS preflight carries no key").isNotEqualTo(401);
        given().accept("text/html").get("/").then().statusCode(200);
        given().get("/chat/js/api.js").then().statusCode(200);
        // LangGraph's meta endpoints and the API's description (agent-chat-ui calls /info before it has a key)
        for (String open : new String[]{"/info", "/ok", "/openapi.json", "/docs"}) {
            given().get(open).then().statusCode(200);
        }
        assertUnauthenticated(given().contentType("application/json").body("{}").post("/info"));
    }

    @Test
    void aClientCannotNameItsPrincipalInTheGuardsHeader() {
        Principals p = principals();
        String[] t = ownersThread();
        assertUnauthenticated(given().header(Callers.HEADER, p.owner() + ";admin").get("/threads/{t}", t[0]));
        assertNotFound(as(Caller.OTHER).header(Callers.HEADER, p.owner() + ";admin").get("/threads/{t}", t[0]));
    }

    // ---- helpers

    private static Door door(String method, String path) {
        return new Door(method, path, null, Map.of());
    }

    private static Door door(String method, String path, String body) {
        return new Door(method, path, body, Map.of());
    }

    private static Response call(Door d, Caller caller, String thread, String run, String assistant) {
        RequestSpecification r = as(caller);
        d.headers().forEach((k, v) -> r.header(k, fill(v, thread, run, assistant)));
        if (d.body() != null) {
            r.contentType("application/json").body(fill(d.body(), thread, run, assistant));
        }
        return r.request(d.method(), fill(d.path(), thread, run, assistant));
    }

    private static String fill(String s, String thread, String run, String assistant) {
        return s.replace("{t}", thread == null ? "" : thread).replace("{r}", run == null ? "" : run).replace("{a}", assistant == null ? "" : assistant);
    }

    static void assertUnauthenticated(Response r) {
        assertThat(r.statusCode()).as("no key: %s", r.asString()).isEqualTo(401);
        assertThat(r.<String>path("code")).isEqualTo("unauthenticated");
        assertThat(r.header("WWW-Authenticate")).startsWith("Bearer");
    }

    static void assertAnswered(Response r, String who) {
        assertThat(r.statusCode()).as("%s: %s", who, r.asString()).isBetween(200, 299);
    }

    static void assertForbidden(Response r) {
        assertThat(r.statusCode()).as("not an admin: %s", r.asString()).isEqualTo(403);
        assertThat(r.<String>path("code")).isEqualTo("forbidden");
    }

    static void assertNotFound(Response r) {
        assertThat(r.statusCode()).as("another principal's: %s", r.asString()).isEqualTo(404);
    }

    private static List<String> threadIds(Caller caller, Map<String, Object> body) {
        Response r = as(caller).contentType("application/json").body(body).post("/threads/search");
        assertThat(r.statusCode()).as("search: %s", r.asString()).isEqualTo(200);
        return r.path("thread_id");
    }

    private static long count(Caller caller, String path, Map<String, Object> body) {
        return Long.parseLong(as(caller).contentType("application/json").body(body).post(path).then().statusCode(200).extract().asString().strip());
    }
}
