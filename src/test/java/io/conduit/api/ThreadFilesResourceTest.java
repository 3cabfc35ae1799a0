package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The files endpoints over HTTP, on Postgres (the test profile's store): upload, list, download, delete, and refusals. */
@QuarkusTest
@TestProfile(ThreadFilesResourceTest.SmallUploads.class)
class ThreadFilesResourceTest {

    static final int LIMIT = 64 * 1024;

    public static class SmallUploads implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.files.max-upload-bytes", Integer.toString(LIMIT));
        }
    }

    @Test
    void aCsvIsUploadedListedWithItsColumnsDownloadedAndDeleted() {
        String thread = Api.newThread("files");
        String csv = "city,sales,share\nParis,3,0.5\nLyon,4,0.25\n";
        JsonPath up = given().multiPart("file", "sales.csv", csv.getBytes(StandardCharsets.UTF_8), "text/csv")
                .when().post("/threads/{t}/files", thread).then().statusCode(201).extract().jsonPath();
        String id = up.getString("file_id");
        assertThat(up.getString("name")).isEqualTo("sales.csv");
        assertThat(up.getLong("size")).isEqualTo(csv.length());
        assertThat(up.getLong("csv.row_count")).isEqualTo(2);
        assertThat(up.getList("csv.columns.name")).containsExactly("city", "sales", "share");
        assertThat(up.getList("csv.columns.type")).containsExactly("string", "integer", "number");

        given().multiPart("file", "notes.txt", "hello".getBytes(StandardCharsets.UTF_8), "text/plain")
                .when().post("/threads/{t}/files", thread).then().statusCode(201).body("csv", org.hamcrest.Matchers.nullValue());
        JsonPath list = given().when().get("/threads/{t}/files", thread).then().statusCode(200).extract().jsonPath();
        assertThat(list.getList("name")).containsExactly("sales.csv", "notes.txt");
        assertThat(list.getList("content_type")).containsExactly("text/csv", "text/plain");

        byte[] body = given().when().get("/threads/{t}/files/{f}", thread, id).then().statusCode(200)
                .header("Content-Type", org.hamcrest.Matchers.startsWith("text/csv")).extract().asByteArray();
        assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo(csv);

        given().when().delete("/threads/{t}/files/{f}", thread, id).then().statusCode(204);
        given().when().delete("/threads/{t}/files/{f}", thread, id).then().statusCode(404).body("code", equalTo("not_found"));
        given().when().get("/threads/{t}/files/{f}", thread, id).then().statusCode(404).body("code", equalTo("not_found"));
        assertThat(given().when().get("/threads/{t}/files", thread).then().extract().jsonPath().getList("name")).containsExactly("notes.txt");
    }

    @Test
    void aMalformedCsvIsRefusedWith422NamingTheLineAndNotStored() {
        String thread = Api.newThread("files");
        String csv = "a,b\n1,2\n3,4\n5,6,7\n";
        given().multiPart("file", "bad.csv", csv.getBytes(StandardCharsets.UTF_8), "text/csv")
                .when().post("/threads/{t}/files", thread).then().statusCode(422)
                .body("code", equalTo("malformed_csv"))
                .body("detail", equalTo("malformed CSV at line 4: 3 values where the header has 2 columns"));
        given().when().get("/threads/{t}/files", thread).then().statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void anUploadPastTheLimitIs413AndNotStored() {
        String thread = Api.newThread("files");
        byte[] big = ("x\n" + "1\n".repeat(LIMIT)).getBytes(StandardCharsets.UTF_8);
        given().multiPart("file", "big.csv", big, "text/csv")
                .when().post("/threads/{t}/files", thread).then().statusCode(413).body("code", equalTo("body_too_large"));
        given().when().get("/threads/{t}/files", thread).then().statusCode(200).body("size()", equalTo(0));
        // just under the limit is taken
        byte[] fits = ("x\n" + "1\n".repeat(LIMIT / 4)).getBytes(StandardCharsets.UTF_8);
        given().multiPart("file", "fits.csv", fits, "text/csv")
                .when().post("/threads/{t}/files", thread).then().statusCode(201).body("csv.row_count", equalTo(LIMIT / 4));
    }

    @Test
    void unknownThreadsAndFilesAre404AndDeletingAThreadDeletesItsFiles() {
        given().multiPart("file", "a.csv", "a\n1\n".getBytes(StandardCharsets.UTF_8), "text/csv")
                .when().post("/threads/{t}/files", "no-such-thread").then().statusCode(404).body("code", equalTo("not_found"));
        given().when().get("/threads/{t}/files", "no-such-thread").then().statusCode(404);
        String thread = Api.newThread("files");
        given().when().get("/threads/{t}/files/{f}", thread, "nope").then().statusCode(404).body("code", equalTo("not_found"));
        String id = given().multiPart("file", "a.csv", "a\n1\n".getBytes(StandardCharsets.UTF_8), "text/csv")
                .when().post("/threads/{t}/files", thread).then().statusCode(201).extract().path("file_id");
        given().when().delete("/threads/{t}", thread).then().statusCode(204);
        // the same id again: the thread and its files are gone
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        given().when().get("/threads/{t}/files", thread).then().statusCode(200).body("size()", equalTo(0));
        given().when().get("/threads/{t}/files/{f}", thread, id).then().statusCode(404);
    }

    @Test
    void anUploadWithoutAFileFieldIs422() {
        String thread = Api.newThread("files");
        given().multiPart("other", "x").when().post("/threads/{t}/files", thread).then().statusCode(422)
                .body("code", equalTo("invalid_input"));
        assertThat(List.of()).isEmpty();
    }
}
