package io.conduit.runs.submission;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.runs.WebhookRefusedException;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhookTargetsTest {

    private final WebhookTargets targets = new WebhookTargets(List.of("Hooks.Example.com", "::1"));

    @Test
    void aListedHostOverHttpOrHttpsIsAccepted() {
        assertThatCode(() -> targets.check("https://hooks.example.com/runs?x=1")).doesNotThrowAnyException();
        assertThatCode(() -> targets.check("http://HOOKS.example.com:8080/")).doesNotThrowAnyException();
        assertThatCode(() -> targets.check("http://[::1]:9000/h")).doesNotThrowAnyException();
        assertThatCode(() -> targets.check(null)).doesNotThrowAnyException();
    }

    @Test
    void aHostNotListedIsNotAllowed() {
        assertThatThrownBy(() -> targets.check("https://evil.example.com/")).isInstanceOf(WebhookRefusedException.class)
                .extracting(e -> ((WebhookRefusedException) e).code()).isEqualTo(WebhookRefusedException.NOT_ALLOWED);
        // a listed name as a suffix or in user info is not the host
        assertThatThrownBy(() -> targets.check("https://hooks.example.com.evil.io/")).extracting(e -> ((WebhookRefusedException) e).code())
                .isEqualTo(WebhookRefusedException.NOT_ALLOWED);
        assertThatThrownBy(() -> targets.check("https://hooks.example.com@evil.io/")).isInstanceOf(WebhookRefusedException.class);
    }

    @Test
    void noHostListedRefusesEveryWebhook() {
        assertThatThrownBy(() -> new WebhookTargets(List.of()).check("https://hooks.example.com/"))
                .extracting(e -> ((WebhookRefusedException) e).code()).isEqualTo(WebhookRefusedException.NOT_ALLOWED);
    }

    @Test
    void whatIsNotAnAbsoluteHttpUrlIsInvalid() {
        for (Object bad : new Object[]{"/relative/path", "ftp://hooks.example.com/", "hooks.example.com", "http://", "http://a b", "", 42}) {
            assertThatThrownBy(() -> targets.check(bad)).as(String.valueOf(bad)).isInstanceOf(WebhookRefusedException.class)
                    .extracting(e -> ((WebhookRefusedException) e).code()).isEqualTo(WebhookRefusedException.INVALID);
        }
    }
}
