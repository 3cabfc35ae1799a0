package io.conduit.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * A search's page with LangGraph's paging headers, as its servers set them on {@code /threads/search} and
 * {@code /assistants/search}: {@code X-Pagination-Total} is the offset past this page, plus one when the page is full
 * (there may be more; the servers do not count them), and {@code X-Pagination-Next}, the next page's offset, only then.
 * The SDK's {@code assistants.search({includePagination: true})} reads the latter.
 */
final class SearchPages {

    static final String TOTAL = "X-Pagination-Total";
    static final String NEXT = "X-Pagination-Next";

    private SearchPages() {
    }

    static Response page(ArrayNode items, int offset, int limit) {
        long past = (long) offset + items.size();
        Response.ResponseBuilder r = Response.ok(items, MediaType.APPLICATION_JSON_TYPE);
        if (items.size() == limit) {
            r.header(NEXT, past).header(TOTAL, past + 1);
        } else {
            r.header(TOTAL, past);
        }
        return r.build();
    }
}
