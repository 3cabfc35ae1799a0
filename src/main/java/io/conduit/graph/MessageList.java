package io.conduit.graph;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An immutable list of {@link Identified} items where appending is O(1): views share one backing array, and the view
 * that owns its tail extends it in place (as a Go slice does). Replacing or removing an item copies. Each step of a
 * run keeps its own view at no cost, which is what lets a long conversation step in constant time.
 */
public final class MessageList<M extends Identified> implements Iterable<M> {

    private static final MessageList<?> EMPTY = new MessageList<>(new Shared(8), 0);

    /** The backing store; positions below {@code claimed} never change once written. */
    private static final class Shared {
        volatile Object[] items;
        int claimed;
        final Map<String, Integer> index = new ConcurrentHashMap<>();

        Shared(int capacity) {
            items = new Object[capacity];
        }
    }

    private final Shared shared;
    private final int size;

    private MessageList(Shared shared, int size) {
        this.shared = shared;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    public static <M extends Identified> MessageList<M> empty() {
        return (MessageList<M>) EMPTY;
    }

    public static <M extends Identified> MessageList<M> of(List<? extends M> items) {
        return MessageList.<M>empty().with(items);
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    @SuppressWarnings("unchecked")
    public M get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return (M) shared.items[i];
    }

    public M last() {
        return size == 0 ? null : get(size - 1);
    }

    public M byId(String id) {
        int p = indexOf(id);
        return p < 0 ? null : get(p);
    }

    public int indexOf(String id) {
        Integer p = shared.index.get(id);
        return p != null && p < size && ((Identified) shared.items[p]).id().equals(id) ? p : -1;
    }

    /** A read-only {@link List} view, no copy. */
    public List<M> asList() {
        return new AbstractList<>() {
            @Override
            public M get(int i) {
                return MessageList.this.get(i);
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    @Override
    public Iterator<M> iterator() {
        return asList().iterator();
    }

    /** Applies writes in order: a new id appends, a known id replaces, a {@link Removal} removes. */
    public MessageList<M> with(List<? extends M> writes) {
        MessageList<M> out = this;
        for (M m : writes) {
            if (m == null || m.id() == null) {
                throw new IllegalArgumentException("a message list item needs an id: " + m);
            }
            int p = out.indexOf(m.id());
            if (m instanceof Removal) {
                out = p < 0 ? out : out.copyWith(p, null);
            } else if (p >= 0) {
                out = out.copyWith(p, m);
            } else {
                out = out.append(m);
            }
        }
        return out;
    }

    private MessageList<M> append(M m) {
        Shared s = shared;
        synchronized (s) {
            // the shared empty list is never extended in place: its array would keep those items for good
            if (s.claimed == size && this != EMPTY) {
                if (size == s.items.length) {
                    s.items = Arrays.copyOf(s.items, size * 2);
                }
                s.items[size] = m;
                s.index.put(m.id(), size);
                s.claimed = size + 1;
                return new MessageList<>(s, size + 1);
            }
        }
        // another view already extended this array: branch off with a copy
        return copyWith(-1, null).append(m);
    }

    /** A private copy; with {@code at >= 0}, the item there is replaced, or dropped when {@code replacement} is null. */
    private MessageList<M> copyWith(int at, M replacement) {
        Shared s = new Shared(Math.max(8, size * 2));
        int n = 0;
        for (int i = 0; i < size; i++) {
            Object item = i == at ? replacement : shared.items[i];
            if (item != null) {
                s.items[n] = item;
                s.index.put(((Identified) item).id(), n);
                n++;
            }
        }
        s.claimed = n;
        return new MessageList<>(s, n);
    }

    /**
     * The writes that turn {@code base} into this list, for handing a subgraph's messages to its parent: items
     * appended or replaced since. Removals are not reported.
     */
    public List<M> changedSince(MessageList<M> base) {
        if (base.shared == shared && base.size <= size) {
            return List.copyOf(asList().subList(base.size, size));
        }
        java.util.ArrayList<M> changed = new java.util.ArrayList<>();
        for (M m : this) {
            M before = base.byId(m.id());
            if (before != m && (before == null || !before.equals(m))) {
                changed.add(m);
            }
        }
        return changed;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MessageList<?> other) || other.size != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (!get(i).equals(other.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return asList().hashCode();
    }

    @Override
    public String toString() {
        return asList().toString();
    }
}
