package io.conduit.runs;

import java.util.Comparator;
import java.util.Locale;
import java.util.Set;

/**
 * The sort a search asked for, checked against the columns a store allows: the name goes into SQL, so only names
 * from the allowed set get through. Default: {@code created_at desc}.
 */
public record SortOrder(String column, boolean descending) {

    public static SortOrder of(String sortBy, String sortOrder, Set<String> allowed) {
        String column = sortBy == null || sortBy.isBlank() ? "created_at" : sortBy.toLowerCase(Locale.ROOT);
        if (!allowed.contains(column)) {
            throw new IllegalArgumentException("cannot sort by " + sortBy + "; one of " + allowed);
        }
        String order = sortOrder == null || sortOrder.isBlank() ? "desc" : sortOrder.toLowerCase(Locale.ROOT);
        if (!order.equals("asc") && !order.equals("desc")) {
            throw new IllegalArgumentException("sort order is asc or desc, not " + sortOrder);
        }
        return new SortOrder(column, order.equals("desc"));
    }

    /**
     * As {@link #of}, for a client's request: a sort it cannot have is an {@link InvalidInputException} naming
     * {@code sort_by} or {@code sort_order}.
     */
    public static SortOrder checked(String sortBy, String sortOrder, Set<String> allowed) {
        String column = sortBy == null || sortBy.isBlank() ? "created_at" : sortBy.toLowerCase(Locale.ROOT);
        if (!allowed.contains(column)) {
            throw new InvalidInputException("sort_by", "must be one of " + String.join(", ", new java.util.TreeSet<>(allowed)));
        }
        String order = sortOrder == null || sortOrder.isBlank() ? "desc" : sortOrder.toLowerCase(Locale.ROOT);
        if (!order.equals("asc") && !order.equals("desc")) {
            throw new InvalidInputException("sort_order", "must be asc or desc");
        }
        return new SortOrder(column, order.equals("desc"));
    }

    /**
     * {@code alias.column DIR, alias.tieBreak DIR}: safe to put in SQL, as the column comes from the allowed set and
     * the rest from the store's code. Nulls come last ascending and first descending, as the in-memory stores sort.
     */
    public String sql(String alias, String tieBreak) {
        String dir = descending ? " DESC" : " ASC";
        return alias + "." + column + dir + ", " + alias + "." + tieBreak + dir;
    }

    public <T> Comparator<T> apply(Comparator<T> ascending) {
        return descending ? ascending.reversed() : ascending;
    }
}
