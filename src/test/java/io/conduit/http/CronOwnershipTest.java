package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Crons are their creator's, with API keys on: another principal neither finds, counts, changes nor deletes them (404),
 * nor puts a cron on a thread it does not own; an admin sees them all; a cron's record names its owner.
 */
@QuarkusTest
@TestProfile(ApiKeyAuth.class)
class CronOwnershipTest {

    private static final Map<String, Object> CRON = Map.of("assistant_id", "agent", "schedule", "0 3 * * *");

    @Test
    void aPrincipalSeesAndChangesItsOwnCronsOnly() {
        String ada = "ada-" + UUID.randomUUID();
        String adaKey = ApiKeyAuth.createKey(ada, false);
        String boKey = ApiKeyAuth.createKey("bo-" + UUID.randomUUID(), false);

        String thread = as(adaKey).body(Map.of()).post("/threads").then().statusCode(200).extract().path("thread_id");
        String onThread = as(adaKey).body(CRON).post("/threads/" + thread + "/runs/crons").then().statusCode(200)
                .extract().path("cron_id");
        var stateless = as(adaKey).body(CRON).post("/runs/crons").then().statusCode(200).extract();
        assertThat(stateless.<String>path("user_id")).isEqualTo(ada);
        String statelessId = stateless.path("cron_id");

        List<String> adas = as(adaKey).body(Map.of("limit", 1000)).post("/runs/crons/search").then().statusCode(200)
                .extract().path("cron_id");
        assertThat(adas).containsExactlyInAnyOrder(onThread, statelessId);
        List<String> bos = as(boKey).body(Map.of("limit", 1000)).post("/runs/crons/search").then().statusCode(200)
                .extract().path("cron_id");
        assertThat(bos).doesNotContain(onThread, statelessId);
        assertThat(as(boKey).body(Map.of("thread_id", thread)).post("/runs/crons/count").then().statusCode(200)
                .extract().as(Long.class)).isZero();

        as(boKey).body(Map.of("enabled", false)).patch("/runs/crons/" + onThread).then().statusCode(404);
        as(boKey).delete("/runs/crons/" + onThread).then().statusCode(404);
        as(boKey).body(CRON).post("/threads/" + thread + "/runs/crons").then().statusCode(404);

        List<String> all = as(ApiKeyAuth.ADMIN_KEY).body(Map.of("limit", 1000)).post("/runs/crons/search").then().statusCode(200)
                .extract().path("cron_id");
        assertThat(all).as("an admin sees every cron").contains(onThread, statelessId);

        as(adaKey).delete("/runs/crons/" + statelessId).then().statusCode(204);
        as(adaKey).delete("/threads/" + thread).then().statusCode(204);
        as(adaKey).delete("/runs/crons/" + onThread).then().statusCode(404);
    }

    @Test
    void withoutACredentialNothingIsAnswered() {
        given().contentType("application/json").body(CRON).post("/runs/crons").then().statusCode(401);
        given().contentType("application/json").body(Map.of()).post("/runs/crons/search").then().statusCode(401);
    }

    private static RequestSpecification as(String key) {
        return given().header("x-api-key", key).contentType("application/json");
    }
}
