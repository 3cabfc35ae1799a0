package io.conduit.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import org.junit.jupiter.api.Test;

class JsonSchemaConverterTest {

    @Test
    void everySupportedKeywordBecomesTheMatchingElement() {
        JsonObjectSchema schema = JsonSchemaConverter.parameters("search", """
                {"type":"object","description":"Search options","additionalProperties":false,
                 "properties":{
                   "query":{"type":"string","description":"What to look for","minLength":1},
                   "limit":{"type":"integer","description":"Most results"},
                   "threshold":{"type":"number"},
                   "exact":{"type":"boolean"},
                   "order":{"type":"string","enum":["asc","desc"],"description":"Sort order"},
                   "tags":{"type":"array","items":{"type":"string"}},
                   "range":{"type":"object","properties":{"from":{"type":"integer"},"to":{"type":"integer"}},"required":["from"]}},
                 "required":["query","limit"]}""");

        assertThat(schema.description()).isEqualTo("Search options");
        assertThat(schema.additionalProperties()).isFalse();
        assertThat(schema.required()).containsExactly("query", "limit");
        assertThat(schema.properties()).containsOnlyKeys("query", "limit", "threshold", "exact", "order", "tags", "range");
        assertThat(schema.properties().get("query")).isEqualTo(JsonStringSchema.builder().description("What to look for").build());
        assertThat(schema.properties().get("limit")).isEqualTo(JsonIntegerSchema.builder().description("Most results").build());
        assertThat(schema.properties().get("threshold")).isInstanceOf(JsonNumberSchema.class);
        assertThat(schema.properties().get("exact")).isInstanceOf(JsonBooleanSchema.class);
        assertThat(schema.properties().get("order"))
                .isEqualTo(JsonEnumSchema.builder().description("Sort order").enumValues("asc", "desc").build());
        assertThat(((JsonArraySchema) schema.properties().get("tags")).items()).isInstanceOf(JsonStringSchema.class);
        JsonObjectSchema range = (JsonObjectSchema) schema.properties().get("range");
        assertThat(range.properties()).containsOnlyKeys("from", "to");
        assertThat(range.required()).containsExactly("from");
    }

    @Test
    void anEnumWithoutATypeAndANullableTypeAreUnderstood() {
        JsonObjectSchema schema = JsonSchemaConverter.parameters("t", """
                {"properties":{"mode":{"enum":["fast","slow"]},"note":{"type":["string","null"]}}}""");

        assertThat(schema.properties().get("mode")).isEqualTo(JsonEnumSchema.builder().enumValues("fast", "slow").build());
        JsonAnyOfSchema note = (JsonAnyOfSchema) schema.properties().get("note");
        assertThat(note.anyOf()).hasSize(2);
        assertThat(note.anyOf().get(0)).isInstanceOf(JsonStringSchema.class);
        assertThat(note.anyOf().get(1)).isInstanceOf(JsonNullSchema.class);
    }

    @Test
    void aBlankSchemaMeansNoArguments() {
        assertThat(JsonSchemaConverter.parameters("now", "  ").properties()).isEmpty();
        assertThat(JsonSchemaConverter.parameters("now", null).properties()).isEmpty();
    }

    @Test
    void badSchemasFailNamingTheToolAndThePlace() {
        assertThatThrownBy(() -> JsonSchemaConverter.parameters("search", "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"text\"}}}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tool 'search': parameter schema at $.properties.q: unsupported type 'text'");
        assertThatThrownBy(() -> JsonSchemaConverter.parameters("search", "{\"type\":\"object\",\"properties\":{\"tags\":{\"type\":\"array\"}}}"))
                .hasMessageContaining("$.properties.tags: an array needs 'items'");
        assertThatThrownBy(() -> JsonSchemaConverter.parameters("search", "{\"type\":\"object\",\"properties\":{\"n\":{\"enum\":[1,2]}}}"))
                .hasMessageContaining("only string enum values are supported");
        assertThatThrownBy(() -> JsonSchemaConverter.parameters("search", "{\"type\":\"string\"}"))
                .hasMessageContaining("must be an object schema");
        assertThatThrownBy(() -> JsonSchemaConverter.parameters("search", "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/x\"}}}"))
                .hasMessageContaining("'$ref' is not supported");
        assertThatThrownBy(() -> JsonSchemaConverter.parameters("search", "{not json"))
                .hasMessageStartingWith("tool 'search': its parameter schema is not JSON");
    }
}
