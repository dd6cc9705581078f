-- wrk script for bench/load.mjs: every request a PUT of the JSON body in BENCH_BODY.
wrk.method = "PUT"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
