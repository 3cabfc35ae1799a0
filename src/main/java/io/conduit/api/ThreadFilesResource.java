package io.conduit.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.files.CsvSummary;
import io.conduit.files.FileStore;
import io.conduit.files.FileUploads;
import io.conduit.files.FilesConfig;
import io.conduit.files.StoredFile;
import io.conduit.http.ErrorBody;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.ThreadStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestMulti;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * A thread's files: upload (multipart, field {@code file}), list, download ({@code GET /threads/{id}/files/{file_id}}), delete. A CSV file is checked when it is
 * uploaded (422 {@code malformed_csv} naming the line) and listed with its columns and row count.
 */
@Path("/threads/{id}/files")
@Produces(MediaType.APPLICATION_JSON)
public class ThreadFilesResource {

    private final ThreadStore threads;
    private final FileStore files;
    private final FileUploads uploads;

    ThreadFilesResource(ThreadStore threads, FileStore files, FilesConfig config) {
        this.threads = threads;
        this.files = files;
        this.uploads = new FileUploads(files, config.maxUploadBytes(), Clock.systemUTC());
    }

    @POST
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Uni<Response> upload(@PathParam("id") String id, @RestForm("file") FileUpload file) {
        if (file == null || file.uploadedFile() == null) {
            throw new InvalidInputException("file", "a multipart form field named file, holding the file, is required");
        }
        String name = name(file.fileName());
        return thread(id).chain(() -> uploads.upload(id, name, file.contentType(), file.uploadedFile()))
                .map(f -> Response.status(201).entity(json(f)).type(MediaType.APPLICATION_JSON).build());
    }

    @GET
    public Uni<ArrayNode> list(@PathParam("id") String id) {
        return thread(id).chain(() -> files.list(id)).map(list -> {
            ArrayNode out = JsonCodec.MAPPER.createArrayNode();
            list.forEach(f -> out.add(json(f)));
            return out;
        });
    }

    /** The bytes, streamed a chunk at a time as the client reads them; 404 (JSON) for an unknown thread or file. */
    @GET
    @Path("/{file}")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public RestMulti<byte[]> download(@PathParam("id") String id, @PathParam("file") String fileId) {
        Uni<Object> found = threads.get(id).chain(t -> t.isEmpty() ? Uni.createFrom().item((Object) ErrorBody.of(new NotFoundException("Thread " + id + " not found")))
                : files.get(id, fileId).map(f -> f.<Object>map(x -> x).orElse(ErrorBody.of(missing(fileId)))));
        return RestMulti.fromUniResponse(found,
                f -> f instanceof StoredFile file ? files.content(id, file.fileId())
                        : Multi.createFrom().item(((ErrorBody) f).json().getBytes(StandardCharsets.UTF_8)),
                f -> f instanceof StoredFile file
                        ? Map.of("Content-Type", List.of(file.contentType()), "Content-Length", List.of(Long.toString(file.size())),
                                "Content-Disposition", List.of("attachment; filename=\"" + file.name().replace("\"", "") + "\""))
                        : Map.of("Content-Type", List.of(MediaType.APPLICATION_JSON)),
                f -> f instanceof StoredFile ? 200 : ((ErrorBody) f).status());
    }

    @DELETE
    @Path("/{file}")
    public Uni<Response> delete(@PathParam("id") String id, @PathParam("file") String fileId) {
        return thread(id).chain(() -> files.delete(id, fileId)).map(deleted -> {
            if (!deleted) {
                throw missing(fileId);
            }
            return Response.noContent().build();
        });
    }

    static ObjectNode json(StoredFile f) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode().put("file_id", f.fileId()).put("thread_id", f.threadId()).put("name", f.name())
                .put("size", f.size()).put("content_type", f.contentType()).put("created_at", f.createdAt().toString());
        CsvSummary csv = f.csv();
        if (csv != null) {
            ObjectNode c = o.putObject("csv").put("row_count", csv.rowCount());
            ArrayNode cols = c.putArray("columns");
            csv.columns().forEach(col -> cols.addObject().put("name", col.name()).put("type", col.type()));
        }
        return o;
    }

    private Uni<Void> thread(String id) {
        return threads.get(id).map(t -> {
            if (t.isEmpty()) {
                throw new NotFoundException("Thread " + id + " not found");
            }
            return null;
        }).replaceWithVoid();
    }

    /** The name without any folders a browser may send; 1 to 255 characters, no control characters. */
    private static String name(String given) {
        String n = given == null ? "" : given.substring(Math.max(given.lastIndexOf('/'), given.lastIndexOf('\\')) + 1).strip();
        if (n.isEmpty() || n.length() > 255 || n.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidInputException("file", "the file needs a name of 1 to 255 characters, without control characters");
        }
        return n;
    }

    private static NotFoundException missing(String fileId) {
        return new NotFoundException("File " + fileId + " not found");
    }
}
