package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The hand-written OpenAPI document against the routes served: every JAX-RS resource method and every Vert.x route of
 * a front door is described (method and path), and every path described is served. Only the scripted model's
 * endpoints ({@code /simulator}) are left out, on purpose. Then the document and its page as a client gets them.
 */
@QuarkusTest
class OpenApiDocumentTest {

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
    private static final Pattern ROUTE = Pattern.compile("router\\.(get|post|put|patch|delete)\\((BASE)?(?: \\+ )?(?:\"([^\"]*)\")?\\)");
    private static final Pattern BASE = Pattern.compile("static final String BASE = \"([^\"]+)\"");

    @ConfigProperty(name = "quarkus.application.version")
    String version;

    @Test
    void everyRouteServedIsDescribedAndEveryPathDescribedIsServed() throws IOException {
        Set<String> described = new TreeSet<>();
        JsonNode paths = new YAMLMapper().readTree(getClass().getClassLoader().getResource(ApiDocsResource.DOCUMENT)).get("paths");
        for (Iterator<String> it = paths.fieldNames(); it.hasNext(); ) {
            String p = it.next();
            paths.get(p).fieldNames().forEachRemaining(m -> {
                if (METHODS.contains(m.toUpperCase())) {
                    described.add(m.toUpperCase() + " " + normal(p));
                }
            });
        }
        Set<String> served = new TreeSet<>();
        served.addAll(resourceMethods());
        served.addAll(vertxRoutes());
        served.removeIf(r -> r.contains(" /simulator/"));
        assertThat(served).as("routes served").hasSizeGreaterThan(60);
        assertThat(described).as("the document describes every route served, and only those").isEqualTo(served);
    }

    @Test
    void theDocumentIsServedAsJsonWithTheBuildsVersionAndItsPageDrawsIt() throws IOException {
        JsonNode doc = JsonCodec.MAPPER.readTree(given().get("/openapi.json").then().statusCode(200)
                .contentType("application/json").extract().asString());
        assertThat(doc.get("openapi").asText()).isEqualTo("3.1.0");
        assertThat(doc.at("/info/version").asText()).isEqualTo(version);
        assertThat(doc.at("/paths/~1threads~1{thread_id}~1runs~1stream/post/responses/200/$ref").asText())
                .isEqualTo("#/components/responses/RunStream");
        // every reference resolves to a component
        List<String> refs = doc.findValuesAsText("$ref");
        assertThat(refs).isNotEmpty().allSatisfy(ref -> assertThat(doc.at(ref.substring(1)).isMissingNode()).as(ref).isFalse());
        String page = given().get("/docs").then().statusCode(200).contentType("text/html").extract().asString();
        assertThat(page).contains("url: \"/openapi.json\"").contains("integrity=\"sha384-");
    }

    /** {@code /threads/{id}/runs/:run_id} and the like as one shape: every parameter alike. */
    private static String normal(String path) {
        String p = path.replaceAll("\\{[^}/]+}", "{}").replaceAll(":[^/]+", "{}").replaceAll("/+", "/");
        return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    private static Set<String> resourceMethods() {
        Set<String> out = new TreeSet<>();
        for (JavaClass c : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.conduit")) {
            if (!c.isAnnotatedWith(Path.class)) {
                continue;
            }
            String base = c.getAnnotationOfType(Path.class).value();
            for (JavaMethod m : c.getMethods()) {
                for (String verb : METHODS) {
                    if (m.isAnnotatedWith("jakarta.ws.rs." + verb)) {
                        String sub = m.isAnnotatedWith(Path.class) ? m.getAnnotationOfType(Path.class).value() : "";
                        out.add(verb + " " + normal("/" + base + "/" + sub));
                    }
                }
            }
        }
        return out;
    }

    /** The front doors' Vert.x routes, read from their sources (a route's path is a literal, or BASE and a literal). */
    private static Set<String> vertxRoutes() throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<java.nio.file.Path> files = Files.walk(Paths.get("src/main/java/io/conduit"))) {
            for (java.nio.file.Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                String src = Files.readString(f);
                Matcher base = BASE.matcher(src);
                String prefix = base.find() ? base.group(1) : "";
                Matcher m = ROUTE.matcher(src);
                while (m.find()) {
                    if (m.group(2) != null || m.group(3) != null) {
                        String path = (m.group(2) != null ? prefix : "") + (m.group(3) != null ? m.group(3) : "");
                        out.add(m.group(1).toUpperCase() + " " + normal(path));
                    }
                }
            }
        }
        return out;
    }
}
