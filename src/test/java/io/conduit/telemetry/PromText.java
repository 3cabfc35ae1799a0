package io.conduit.telemetry;

import static io.restassured.RestAssured.given;

import java.util.List;

/** The Prometheus text format as the tests read it: one sample per line, {@code name{labels} value}. */
record PromText(List<String> lines) {

    static PromText scrape() {
        String body = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return new PromText(body.lines().filter(l -> !l.startsWith("#")).toList());
    }

    /** Whether any sample of the series is there. */
    boolean has(String name) {
        return lines.stream().anyMatch(l -> l.startsWith(name + "{") || l.startsWith(name + " "));
    }

    /** The sum of the samples of {@code name} whose labels contain {@code labels} (0 when none). */
    double sum(String name, String labels) {
        return lines.stream().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
                .filter(l -> l.contains(labels))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    double value(String name, String labels) {
        return sum(name, labels);
    }
}
