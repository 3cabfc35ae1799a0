package io.conduit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@code conduit.api.*} as SmallRye Config reads it: the names and defaults users had before it was a mapping. */
class ApiConfigTest {

    private static ApiConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withMapping(ApiConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build()
                .getConfigMapping(ApiConfig.class);
    }

    @Test
    void unsetTheBodyLimitIsOneMebibyte() {
        assertThat(config(Map.of()).maxBodyBytes()).isEqualTo(1_048_576L);
    }

    @Test
    void theBodyLimitIsReadFromItsOldName() {
        assertThat(config(Map.of("conduit.api.max-body-bytes", "2048")).maxBodyBytes()).isEqualTo(2048L);
    }

    @Test
    void theShippedPropertiesSetTheDefault() throws IOException {
        // the file states the limit for operators to find; it must not silently differ from the mapping's default
        Properties shipped = new Properties();
        try (InputStream in = ApiConfigTest.class.getResourceAsStream("/application.properties")) {
            shipped.load(in);
        }
        assertThat(shipped.getProperty("conduit.api.max-body-bytes")).isEqualTo(String.valueOf(config(Map.of()).maxBodyBytes()));
    }
}
