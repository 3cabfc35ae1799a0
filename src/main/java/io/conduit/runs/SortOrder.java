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

    /** {@code column DIR, tieBreak DIR}: safe to put in SQL, as both names come from the allowed set. */
    public String sql(String tieBreak) {
        String dir = descending ? " DESC" : " ASC";
        return column + dir + ", " + tieBreak + dir;
    }

    public <T> Comparator<T> apply(Comparator<T> ascending) {
        return descending ? ascending.reversed() : ascending;
    }
}
