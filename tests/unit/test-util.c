/* test-util.c: the unit-bearing parsers, time conversion, safe names, number formatting and
 * CSV quoting of util.h, which every layer uses. */
#include <criterion/criterion.h>
#include "util.h"

Test(util, durations_with_units) {
  sim_time ns;
  const char *why = NULL;
  cr_assert(util_parse_duration("250ms", 0, &ns, &why));
  cr_assert_eq(ns, 250 * SIM_NS_PER_MS);
  cr_assert(util_parse_duration("1.5h", 0, &ns, &why));
  cr_assert_eq(ns, 5400 * SIM_NS_PER_S);
  cr_assert(util_parse_duration("7d", 0, &ns, &why));
  cr_assert_eq(ns, 7 * 86400 * SIM_NS_PER_S);
  cr_assert(util_parse_duration("30us", 0, &ns, &why));
  cr_assert_eq(ns, 30000);
  cr_assert(util_parse_duration("90", SIM_NS_PER_S, &ns, &why));
  cr_assert_eq(ns, 90 * SIM_NS_PER_S);
  cr_assert_not(util_parse_duration("90", 0, &ns, &why)); /* no bare numbers here */
  cr_assert_not_null(why);
  cr_assert_not(util_parse_duration("5 parsecs", 0, &ns, &why));
  cr_assert_not(util_parse_duration("", 0, &ns, &why));
}

/* Issue 30: Go's durations (Kubernetes and Prometheus write them): parts largest unit
 * first, no space; anything else is still refused. */
Test(util, durations_in_go_form) {
  sim_time ns;
  cr_assert(util_parse_duration("1h30m", 0, &ns, NULL));
  cr_assert_eq(ns, 5400 * SIM_NS_PER_S);
  cr_assert(util_parse_duration("2m30.5s", 0, &ns, NULL));
  cr_assert_eq(ns, 150500 * SIM_NS_PER_MS);
  cr_assert(util_parse_duration("1d12h", 0, &ns, NULL));
  cr_assert_eq(ns, 36 * 3600 * SIM_NS_PER_S);
  cr_assert(util_parse_duration("1m1s1ms", 0, &ns, NULL));
  cr_assert_eq(ns, 61001 * SIM_NS_PER_MS);
  static const char *const bad[] = {"30m1h", "1h1h", "1h30", "1h 30m", "1h-30m", "1hh",
                                    "1x2s", "h30m", "1e3s5ms", "1h30mm"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
    cr_expect_not(util_parse_duration(bad[i], 0, &ns, NULL), "'%s' accepted", bad[i]);
}

Test(util, sizes_decimal_and_binary) {
  int64_t b;
  const char *why = NULL;
  cr_assert(util_parse_size("40GB", FALSE, &b, &why));
  cr_assert_eq(b, 40 * UTIL_GB_BYTES);
  cr_assert(util_parse_size("1GiB", FALSE, &b, &why));
  cr_assert_eq(b, UTIL_GIB);
  cr_assert(util_parse_size("512MB", FALSE, &b, &why));
  cr_assert_eq(b, 512000000);
  cr_assert(util_parse_size("12", TRUE, &b, &why));
  cr_assert_eq(b, 12 * UTIL_GB_BYTES);
  cr_assert_not(util_parse_size("12", FALSE, &b, &why));
  cr_assert_not(util_parse_size("-1GB", FALSE, &b, &why));
  cr_assert(UTIL_GB(79500000000) == 79.5);
}

Test(util, strict_numbers_and_time_conversion) {
  double d;
  int64_t i;
  cr_assert(util_parse_double("2.5", &d) && d == 2.5);
  cr_assert_not(util_parse_double("2.5x", &d));
  cr_assert_not(util_parse_double("nan", &d));
  cr_assert(util_parse_int64("-42", &i) && i == -42);
  cr_assert_not(util_parse_int64("4.2", &i));
  cr_assert_eq(util_seconds_to_ns(1.5), 1500000000);
  cr_assert(util_ns_to_seconds(2500000000) == 2.5);
}

Test(util, safe_names) {
  cr_assert(util_name_is_safe("pool-a_1.x"));
  cr_assert_not(util_name_is_safe(".hidden"));
  cr_assert_not(util_name_is_safe("-flag"));
  cr_assert_not(util_name_is_safe("a/b"));
  cr_assert_not(util_name_is_safe(""));
  char long_name[66];
  memset(long_name, 'a', 65);
  long_name[65] = '\0';
  cr_assert_not(util_name_is_safe(long_name));
}

Test(util, shortest_numbers_fixed_decimals_and_csv_fields) {
  GString *s = g_string_new(NULL);
  util_append_shortest(s, 0.25, 1);
  g_string_append_c(s, ' ');
  util_append_shortest(s, 0.1 + 0.2, 1); /* needs 17 digits to read back */
  g_string_append_c(s, ' ');
  util_append_fixed9(s, 1500000000);
  g_string_append_c(s, ' ');
  util_append_fixed9(s, 0);
  g_string_append_c(s, ' ');
  util_csv_field(s, "a,b");
  g_string_append_c(s, ' ');
  util_csv_field(s, "say \"hi\"");
  cr_assert_str_eq(s->str, "0.25 0.30000000000000004 1.5 0 \"a,b\" \"say \"\"hi\"\"\"");
  g_string_free(s, TRUE);
}
