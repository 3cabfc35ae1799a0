package io.conduit.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvInspectionTest {

    @Test
    void columnsTypesAndRowCount() {
        CsvSummary s = inspect("\uFEFFid,price,ok,city,mixed\n1,2.5,true,Paris,1\n2,,false,\"Lyon, FR\",x\n\n3,4,TRUE,\"multi\nline\",2\n");
        assertThat(s.rowCount()).isEqualTo(3);
        assertThat(s.columns()).containsExactly(new CsvSummary.Column("id", "integer"), new CsvSummary.Column("price", "number"),
                new CsvSummary.Column("ok", "boolean"), new CsvSummary.Column("city", "string"), new CsvSummary.Column("mixed", "string"));
    }

    @Test
    void aRowWithTooManyValuesNamesItsLine() {
        assertThatThrownBy(() -> inspect("a,b\n1,2\n3,4\n5,6,7\n8,9\n"))
                .isInstanceOf(MalformedCsvException.class)
                .hasMessage("malformed CSV at line 4: 3 values where the header has 2 columns")
                .extracting(e -> ((MalformedCsvException) e).line()).isEqualTo(4L);
    }

    @Test
    void theLineOfARowIsWhereItStartsEvenAfterAQuotedLineBreak() {
        assertThatThrownBy(() -> inspect("a,b\n\"x\ny\",2\n3\n")).isInstanceOf(MalformedCsvException.class)
                .hasMessageStartingWith("malformed CSV at line 4:");
    }

    @Test
    void anUnclosedQuoteNamesALine() {
        assertThatThrownBy(() -> inspect("a,b\n1,2\n3,\"oops\n")).isInstanceOf(MalformedCsvException.class)
                .hasMessageContaining("line ");
    }

    @Test
    void aHeaderWithoutNamesOrWithARepeatedNameIsRefused() {
        assertThatThrownBy(() -> inspect("")).isInstanceOf(MalformedCsvException.class).hasMessageContaining("line 1: the file is empty");
        assertThatThrownBy(() -> inspect("a,,c\n1,2,3\n")).hasMessage("malformed CSV at line 1: column 2 of the header has no name");
        assertThatThrownBy(() -> inspect("a,b,a\n")).hasMessage("malformed CSV at line 1: the header names column \"a\" twice");
    }

    @Test
    void rowsComeWithTheirLines() {
        try (CsvRows rows = CsvRows.open(in("x,y\n1,2\n\n3,4\n"))) {
            assertThat(rows.header()).isEqualTo(List.of("x", "y"));
            CsvRows.Row r1 = rows.next();
            CsvRows.Row r2 = rows.next();
            assertThat(r1.line()).isEqualTo(2);
            assertThat(r1.values()).containsExactly("1", "2");
            assertThat(r2.line()).isEqualTo(4);
            assertThat(rows.next()).isNull();
        }
    }

    private static CsvSummary inspect(String text) {
        return CsvInspection.inspect(in(text));
    }

    private static ByteArrayInputStream in(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
