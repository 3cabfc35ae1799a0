package io.conduit.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a tool's JSON schema text into LangChain4j's schema elements, which is all a {@code ToolSpecification} can
 * carry. Keywords LangChain4j has no element for (minimum, pattern, format, default...) are dropped: the model only
 * sees the shape, and the tools check their arguments against the full schema themselves.
 */
public final class JsonSchemaConverter {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonSchemaConverter() {
    }

    /** The parameters of tool {@code toolName}; a blank schema means the tool takes no arguments. */
    public static JsonObjectSchema parameters(String toolName, String schemaText) {
        if (schemaText == null || schemaText.isBlank()) {
            return JsonObjectSchema.builder().build();
        }
        JsonNode root;
        try {
            root = JSON.readTree(schemaText);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool '" + toolName + "': its parameter schema is not JSON: "
                    + e.getOriginalMessage(), e);
        }
        JsonSchemaElement element = new Walk(toolName).element(root, "$");
        if (!(element instanceof JsonObjectSchema object)) {
            throw new IllegalArgumentException("tool '" + toolName + "': the parameter schema must be an object schema");
        }
        return object;
    }

    private record Walk(String toolName) {

        JsonSchemaElement element(JsonNode node, String path) {
            if (!node.isObject()) {
                throw fail(path, "a schema must be a JSON object");
            }
            String description = text(node, "description");
            if (node.has("enum")) {
                return enumeration(node, path, description);
            }
            if (node.has("anyOf")) {
                return anyOf(node.get("anyOf"), path, description);
            }
            for (String unsupported : List.of("$ref", "oneOf", "allOf", "not")) {
                if (node.has(unsupported)) {
                    throw fail(path, "'" + unsupported + "' is not supported");
                }
            }
            JsonNode type = node.get("type");
            if (type == null) {
                if (node.has("properties")) {
                    return object(node, path, description);
                }
                throw fail(path, "no 'type'");
            }
            if (type.isArray()) {
                // ["string", "null"]: one element per type
                List<JsonSchemaElement> alternatives = new ArrayList<>();
                for (JsonNode t : type) {
                    alternatives.add(typed(t.asText(), node, path, null));
                }
                return JsonAnyOfSchema.builder().description(description).anyOf(alternatives).build();
            }
            return typed(type.asText(), node, path, description);
        }

        private JsonSchemaElement typed(String type, JsonNode node, String path, String description) {
            return switch (type) {
                case "object" -> object(node, path, description);
                case "string" -> JsonStringSchema.builder().description(description).build();
                case "number" -> JsonNumberSchema.builder().description(description).build();
                case "integer" -> JsonIntegerSchema.builder().description(description).build();
                case "boolean" -> JsonBooleanSchema.builder().description(description).build();
                case "array" -> array(node, path, description);
                case "null" -> new JsonNullSchema();
                default -> throw fail(path, "unsupported type '" + type + "'");
            };
        }

        private JsonObjectSchema object(JsonNode node, String path, String description) {
            Map<String, JsonSchemaElement> properties = new LinkedHashMap<>();
            JsonNode props = node.get("properties");
            if (props != null) {
                if (!props.isObject()) {
                    throw fail(path, "'properties' must be an object");
                }
                props.fields().forEachRemaining(e ->
                        properties.put(e.getKey(), element(e.getValue(), path + ".properties." + e.getKey())));
            }
            List<String> required = new ArrayList<>();
            JsonNode req = node.get("required");
            if (req != null) {
                if (!req.isArray()) {
                    throw fail(path, "'required' must be an array of names");
                }
                req.forEach(r -> required.add(r.asText()));
            }
            JsonObjectSchema.Builder builder = JsonObjectSchema.builder()
                    .description(description)
                    .addProperties(properties)
                    .required(required);
            JsonNode additional = node.get("additionalProperties");
            if (additional != null && additional.isBoolean()) {
                builder.additionalProperties(additional.asBoolean());
            }
            return builder.build();
        }

        private JsonArraySchema array(JsonNode node, String path, String description) {
            JsonNode items = node.get("items");
            if (items == null) {
                throw fail(path, "an array needs 'items'");
            }
            return JsonArraySchema.builder().description(description).items(element(items, path + ".items")).build();
        }

        private JsonEnumSchema enumeration(JsonNode node, String path, String description) {
            JsonNode values = node.get("enum");
            if (!values.isArray() || values.isEmpty()) {
                throw fail(path, "'enum' must be a non-empty array");
            }
            List<String> names = new ArrayList<>();
            for (JsonNode v : values) {
                // LangChain4j's enum element holds strings only
                if (!v.isTextual()) {
                    throw fail(path, "only string enum values are supported, not " + v);
                }
                names.add(v.asText());
            }
            return JsonEnumSchema.builder().description(description).enumValues(names).build();
        }

        private JsonAnyOfSchema anyOf(JsonNode alternatives, String path, String description) {
            if (!alternatives.isArray() || alternatives.isEmpty()) {
                throw fail(path, "'anyOf' must be a non-empty array");
            }
            List<JsonSchemaElement> elements = new ArrayList<>();
            for (int i = 0; i < alternatives.size(); i++) {
                elements.add(element(alternatives.get(i), path + ".anyOf[" + i + "]"));
            }
            return JsonAnyOfSchema.builder().description(description).anyOf(elements).build();
        }

        private static String text(JsonNode node, String field) {
            JsonNode value = node.get(field);
            return value == null || value.isNull() ? null : value.asText();
        }

        private IllegalArgumentException fail(String path, String problem) {
            return new IllegalArgumentException("tool '" + toolName + "': parameter schema at " + path + ": " + problem);
        }
    }
}
