package io.conduit.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

    @Test
    void signsTheTimestampAndBodyWithHmacSha256() {
        // HMAC-SHA256("secret", "1700000000.{}"), computed independently with openssl
        assertThat(new WebhookSignature("secret").sign(1700000000L, "{}")).isEqualTo("sha256=b8569b78799ff9e3cbff0fc2d63a33a2b57f3282abd07c37ae5e8e7d79a5f163");
    }

    @Test
    void anotherTimestampOrBodyOrSecretSignsDifferently() {
        String s = new WebhookSignature("secret").sign(1700000000L, "{}");
        assertThat(new WebhookSignature("secret").sign(1700000001L, "{}")).isNotEqualTo(s);
        assertThat(new WebhookSignature("secret").sign(1700000000L, "{ }")).isNotEqualTo(s);
        assertThat(new WebhookSignature("secreT").sign(1700000000L, "{}")).isNotEqualTo(s);
    }
}
