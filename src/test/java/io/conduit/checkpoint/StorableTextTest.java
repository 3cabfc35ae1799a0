package io.conduit.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.kernel.JsonCodec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which text every store keeps as it is, and where a JSON value holds some that it cannot. */
class StorableTextTest {

    @Test
    void nulAndLoneSurrogatesAreNotStorableAndEverythingElseIs() {
        assertThat(StorableText.problem("a\u0000b")).contains("NUL");
        assertThat(StorableText.problem("a\ud800b")).contains("lone surrogate").contains("U+D800");
        assertThat(StorableText.problem("\udc00")).contains("U+DC00");
        assertThat(StorableText.problem("ends high \ud83d")).contains("U+D83D");
        assertThat(StorableText.problem("pair \ud83d\ude00, tab\t, bell\u0007, \ufffd, é, 中")).isNull();
        assertThat(StorableText.problem("")).isNull();
    }

    @Test
    void aProblemIsNamedByItsPathInTreesAndInMaps() throws Exception {
        var tree = JsonCodec.MAPPER.readTree("{\"metadata\": {\"ok\": 1, \"tags\": [\"x\", {\"deep\": \"a\\u0000\"}]}}");
        assertThat(StorableText.find(tree, "")).isEqualTo(new StorableText.Problem("metadata.tags[1].deep", StorableText.problem("\u0000")));
        var key = JsonCodec.MAPPER.readTree("{\"metadata\": {\"k\\ud800\": 1}}");
        assertThat(StorableText.find(key, "").path()).isEqualTo("metadata");
        assertThat(StorableText.find(key, "").reason()).startsWith("has a key that contains a lone surrogate");
        assertThat(StorableText.find(JsonCodec.MAPPER.readTree("[1, true, null, \"ok\"]"), "")).isNull();

        Map<String, Object> map = Map.of("list", List.of("ok", Map.of("v", "\udfff")));
        assertThat(StorableText.find(map, "value").path()).isEqualTo("value.list[1].v");
        assertThat(StorableText.find(Map.of("a\u0000", 1), "").path()).isEmpty();
        assertThat(StorableText.find(Map.of("n", 1, "b", true, "s", "fine"), "")).isNull();
    }
}
