/**
 * The long-term store (LangGraph's Store API): JSON items by namespace and key that outlive threads, for memories,
 * profiles and skills. An inner layer like the checkpointer: {@link io.conduit.store.Store} is the narrow interface
 * graph nodes and tools use (through a view scoped by the run's user), with an in-memory implementation here and a
 * Postgres one in {@code io.conduit.persistence}; both pass {@code StoreContractTest}.
 */
package io.conduit.store;
