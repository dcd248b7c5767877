package io.crater.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The single range of an HTTP Range header, against a 1,000-byte file. */
class RangesTest {

    @ParameterizedTest(name = "{0} → whole={1} satisfiable={2} {3}+{4}")
    @CsvSource(
            delimiter = '|',
            nullValues = "null",
            value = {
                "null|true|true|0|1000",
                "bytes=0-99|false|true|0|100",
                "bytes=900-|false|true|900|100",
                "bytes=-10|false|true|990|10",
                "bytes=-5000|false|true|0|1000",
                "bytes=990-5000|false|true|990|10",
                "bytes=1000-|false|false|0|0",
                "bytes=5000-6000|false|false|0|0",
                "bytes=-0|false|false|0|0",
                "bytes=0-1,5-6|true|true|0|1000",
                "items=0-1|true|true|0|1000",
                "bytes=abc|true|true|0|1000",
                "bytes=9-3|true|true|0|1000"
            })
    void ranges(String header, boolean whole, boolean satisfiable, long first, long length) {
        Ranges.Range r = Ranges.of(header, 1000);
        assertThat(r.whole()).isEqualTo(whole);
        assertThat(r.satisfiable()).isEqualTo(satisfiable);
        assertThat(r.first()).isEqualTo(first);
        assertThat(r.length()).isEqualTo(length);
    }

    @org.junit.jupiter.api.Test
    void dispositionKeepsTheUtf8Name() {
        assertThat(Ranges.disposition("résumé \"1\".pdf"))
                .isEqualTo("attachment; filename=\"r_sum_ _1_.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22.pdf");
    }
}
