/* SPDX-License-Identifier: MIT */
/*
 * A judge of rocSPARSE and hipSPARSE (Debian's librocsparse-dev and
 * libhipsparse-dev: AMD's precompiled kernels), run under
 * `kfdsig exec --emulate TARGET` (run-judge.sh). A random sparse matrix
 * with integer entries, short rows, empty rows and a few long ones (so
 * that every row-length path of the kernels runs); every value is a small
 * integer held in a double, so every sum the GPU makes is exact and each
 * result is compared bit for bit with the host's:
 *   csrmv      y = alpha * A * x + beta * y (rocsparse_dcsrmv), without
 *              and with rocsparse_dcsrmv_analysis() (the adaptive path)
 *   csr2csc    the transpose's arrays (rocsparse_dcsr2csc): column
 *              pointers, row indices in increasing order, values
 *   dense2csr  a column-major dense matrix to CSR (rocsparse_dnnz,
 *              rocsparse_ddense2csr): counts per row, row pointers,
 *              column indices, values
 *   csrsv      a lower-triangular solve L y = alpha x
 *              (rocsparse_dcsrsv_analysis/_solve), diagonals powers of
 *              two so that every division is exact, no zero pivot
 *   hipsparse  hipSPARSE's csrmv and dense2csr over rocSPARSE
 * The calls are those rocSPARSE's and hipSPARSE's headers document
 * (rocsparse-functions.h, hipsparse.h). Each step prints
 * "STEP: W wrong of N"; exit 1 on any difference, 2 on a HIP or library
 * error.
 */
#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>
#include <rocsparse/rocsparse.h>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define CHECK(x)                                                                   \
	do {                                                                       \
		hipError_t e_ = (x);                                               \
		if (e_ != hipSuccess) {                                            \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, \
				hipGetErrorString(e_));                            \
			exit(2);                                                   \
		}                                                                  \
	} while (0)
#define CHECK_LIB(x)                                                                           \
	do {                                                                                   \
		int s_ = (int)(x);                                                             \
		if (s_ != 0) {                                                                 \
			fprintf(stderr, "%s:%d: %s: status %d\n", __FILE__, __LINE__, #x, s_); \
			exit(2);                                                               \
		}                                                                              \
	} while (0)

static unsigned rng_state = 4242u;

/* Numerical Recipes' 32-bit LCG: deterministic inputs, no library */
static unsigned next_u32(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state >> 8;
}

/* a nonzero integer in [-9, 9] */
static double small_nonzero(void)
{
	int v = (int)(next_u32() % 18) - 9;
	return v >= 0 ? v + 1 : v;
}

struct csr {
	int m, n;
	std::vector<int> ptr, col;
	std::vector<double> val;
};

/*
 * Row r has a length drawn from 0..12, every 97th row 300 + r % 200
 * entries and every 13th none; distinct columns in increasing order.
 * lower: a lower-triangular matrix with a diagonal of 1, 2 or 4.
 */
static struct csr random_csr(int m, int n, bool lower)
{
	struct csr a;
	a.m = m, a.n = n;
	a.ptr.push_back(0);
	std::vector<char> used(n);
	for (int r = 0; r < m; r++) {
		int width = lower ? r : n, len = (int)(next_u32() % 13);
		if (r % 97 == 5)
			len = 300 + r % 200;
		if (r % 13 == 7)
			len = 0;
		len = std::min(len, width);
		std::vector<int> cols;
		std::fill(used.begin(), used.end(), 0);
		while ((int)cols.size() < len) {
			int c = (int)(next_u32() % (unsigned)width);
			if (!used[c]) {
				used[c] = 1;
				cols.push_back(c);
			}
		}
		if (lower)
			cols.push_back(r);
		std::sort(cols.begin(), cols.end());
		for (int c : cols) {
			a.col.push_back(c);
			a.val.push_back(lower && c == r ? (double)(1 << (next_u32() % 3))
							: small_nonzero());
		}
		a.ptr.push_back((int)a.col.size());
	}
	return a;
}

template <typename T> static T *to_device(const std::vector<T> &h)
{
	T *d;
	CHECK(hipMalloc(&d, h.size() * sizeof(T) + 1));
	CHECK(hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
	return d;
}

template <typename T> static std::vector<T> to_host(const T *d, size_t n)
{
	std::vector<T> h(n);
	CHECK(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
	return h;
}

template <typename T>
static size_t compare(const char *step, const std::vector<T> &got, const std::vector<T> &want)
{
	size_t wrong = 0;
	for (size_t i = 0; i < want.size(); i++) {
		if (got[i] == want[i])
			continue;
		if (!wrong)
			fprintf(stderr, "%s: first difference at %zu: got %.17g, want %.17g\n",
				step, i, (double)got[i], (double)want[i]);
		wrong++;
	}
	printf("%s: %zu wrong of %zu\n", step, wrong, want.size());
	return wrong;
}

struct dev_csr {
	int *ptr, *col;
	double *val;
};

static struct dev_csr upload(const struct csr &a)
{
	return { to_device(a.ptr), to_device(a.col), to_device(a.val) };
}

static void release(struct dev_csr d)
{
	CHECK(hipFree(d.ptr));
	CHECK(hipFree(d.col));
	CHECK(hipFree(d.val));
}

static std::vector<double> spmv_host(const struct csr &a, double alpha,
				     const std::vector<double> &x, double beta,
				     std::vector<double> y)
{
	for (int r = 0; r < a.m; r++) {
		double s = 0;
		for (int k = a.ptr[r]; k < a.ptr[r + 1]; k++)
			s += a.val[k] * x[a.col[k]];
		y[r] = alpha * s + beta * y[r];
	}
	return y;
}

static std::vector<double> small_vector(int n)
{
	std::vector<double> v(n);
	for (auto &e : v)
		e = (double)((int)(next_u32() % 11) - 5);
	return v;
}

static size_t step_csrmv(rocsparse_handle h)
{
	struct csr a = random_csr(3000, 2500, false);
	int nnz = (int)a.col.size();
	std::vector<double> x = small_vector(a.n), y0 = small_vector(a.m);
	const double alpha = 2.0, beta = -1.0;
	std::vector<double> want = spmv_host(a, alpha, x, beta, y0);
	struct dev_csr d = upload(a);
	double *dx = to_device(x), *dy = to_device(y0);
	rocsparse_mat_descr descr;
	CHECK_LIB(rocsparse_create_mat_descr(&descr));
	size_t wrong = 0;

	CHECK_LIB(rocsparse_dcsrmv(h, rocsparse_operation_none, a.m, a.n, nnz, &alpha, descr, d.val,
				   d.ptr, d.col, nullptr, dx, &beta, dy));
	wrong += compare("csrmv", to_host(dy, a.m), want);

	rocsparse_mat_info info;
	CHECK_LIB(rocsparse_create_mat_info(&info));
	CHECK_LIB(rocsparse_dcsrmv_analysis(h, rocsparse_operation_none, a.m, a.n, nnz, descr,
					    d.val, d.ptr, d.col, info));
	CHECK(hipMemcpy(dy, y0.data(), a.m * sizeof(double), hipMemcpyHostToDevice));
	CHECK_LIB(rocsparse_dcsrmv(h, rocsparse_operation_none, a.m, a.n, nnz, &alpha, descr, d.val,
				   d.ptr, d.col, info, dx, &beta, dy));
	wrong += compare("csrmv.adaptive", to_host(dy, a.m), want);
	CHECK_LIB(rocsparse_destroy_mat_info(info));
	CHECK_LIB(rocsparse_destroy_mat_descr(descr));
	release(d);
	CHECK(hipFree(dx));
	CHECK(hipFree(dy));
	return wrong;
}

static size_t step_csr2csc(rocsparse_handle h)
{
	struct csr a = random_csr(2000, 1700, false);
	int nnz = (int)a.col.size();
	/* the host transpose: rows visited in order, so rows increase in each column */
	std::vector<int> cptr(a.n + 1, 0), rind(nnz);
	std::vector<double> cval(nnz);
	for (int c : a.col)
		cptr[c + 1]++;
	for (int c = 0; c < a.n; c++)
		cptr[c + 1] += cptr[c];
	std::vector<int> fill(cptr.begin(), cptr.end() - 1);
	for (int r = 0; r < a.m; r++)
		for (int k = a.ptr[r]; k < a.ptr[r + 1]; k++) {
			int at = fill[a.col[k]]++;
			rind[at] = r;
			cval[at] = a.val[k];
		}
	struct dev_csr d = upload(a);
	int *dcptr, *drind;
	double *dcval;
	CHECK(hipMalloc(&dcptr, (a.n + 1) * sizeof(int)));
	CHECK(hipMalloc(&drind, nnz * sizeof(int)));
	CHECK(hipMalloc(&dcval, nnz * sizeof(double)));
	size_t bytes = 0;
	CHECK_LIB(rocsparse_csr2csc_buffer_size(h, a.m, a.n, nnz, d.ptr, d.col,
						rocsparse_action_numeric, &bytes));
	void *tmp;
	CHECK(hipMalloc(&tmp, bytes ? bytes : 1));
	CHECK_LIB(rocsparse_dcsr2csc(h, a.m, a.n, nnz, d.val, d.ptr, d.col, dcval, drind, dcptr,
				     rocsparse_action_numeric, rocsparse_index_base_zero, tmp));
	size_t wrong = compare("csr2csc.col_ptr", to_host(dcptr, a.n + 1), cptr);
	wrong += compare("csr2csc.row_ind", to_host(drind, nnz), rind);
	wrong += compare("csr2csc.val", to_host(dcval, nnz), cval);
	CHECK(hipFree(tmp));
	CHECK(hipFree(dcptr));
	CHECK(hipFree(drind));
	CHECK(hipFree(dcval));
	release(d);
	return wrong;
}

/* a's entries as a column-major dense matrix, leading dimension ld */
static std::vector<double> dense_of(const struct csr &a, int ld)
{
	std::vector<double> dense((size_t)ld * a.n, 0.0);
	for (int r = 0; r < a.m; r++)
		for (int k = a.ptr[r]; k < a.ptr[r + 1]; k++)
			dense[(size_t)a.col[k] * ld + r] = a.val[k];
	return dense;
}

static size_t step_dense2csr(rocsparse_handle h)
{
	struct csr a = random_csr(700, 600, false);
	const int ld = a.m + 3;
	int nnz = (int)a.col.size();
	std::vector<double> dense = dense_of(a, ld);
	std::vector<int> counts(a.m);
	for (int r = 0; r < a.m; r++)
		counts[r] = a.ptr[r + 1] - a.ptr[r];
	double *dA = to_device(dense);
	int *dcount, *dptr, *dcol, total = -1;
	double *dval;
	CHECK(hipMalloc(&dcount, a.m * sizeof(int)));
	rocsparse_mat_descr descr;
	CHECK_LIB(rocsparse_create_mat_descr(&descr));
	CHECK_LIB(rocsparse_set_pointer_mode(h, rocsparse_pointer_mode_host));
	CHECK_LIB(rocsparse_dnnz(h, rocsparse_direction_row, a.m, a.n, descr, dA, ld, dcount,
				 &total));
	size_t wrong = compare("dense2csr.nnz_per_row", to_host(dcount, a.m), counts);
	wrong += compare("dense2csr.nnz", std::vector<int>(1, total), std::vector<int>(1, nnz));
	CHECK(hipMalloc(&dptr, (a.m + 1) * sizeof(int)));
	CHECK(hipMalloc(&dcol, nnz * sizeof(int) + 1));
	CHECK(hipMalloc(&dval, nnz * sizeof(double) + 1));
	CHECK_LIB(rocsparse_ddense2csr(h, a.m, a.n, descr, dA, ld, dcount, dval, dptr, dcol));
	wrong += compare("dense2csr.row_ptr", to_host(dptr, a.m + 1), a.ptr);
	wrong += compare("dense2csr.col_ind", to_host(dcol, nnz), a.col);
	wrong += compare("dense2csr.val", to_host(dval, nnz), a.val);
	CHECK_LIB(rocsparse_destroy_mat_descr(descr));
	CHECK(hipFree(dA));
	CHECK(hipFree(dcount));
	CHECK(hipFree(dptr));
	CHECK(hipFree(dcol));
	CHECK(hipFree(dval));
	return wrong;
}

static size_t step_csrsv(rocsparse_handle h)
{
	/*
	 * The solution is chosen first (integers in [-5, 5]); x = L y / alpha
	 * is exact in integers, and so is every step of the GPU's forward
	 * substitution y[r] = (alpha x[r] - sum L[r][c] y[c]) / L[r][r].
	 */
	struct csr l = random_csr(2500, 2500, true);
	int nnz = (int)l.col.size();
	const double alpha = 1.0;
	std::vector<double> want = small_vector(l.m);
	std::vector<double> x = spmv_host(l, 1.0, want, 0.0, std::vector<double>(l.m, 0.0));
	struct dev_csr d = upload(l);
	double *dx = to_device(x), *dy;
	CHECK(hipMalloc(&dy, l.m * sizeof(double)));
	rocsparse_mat_descr descr;
	CHECK_LIB(rocsparse_create_mat_descr(&descr));
	CHECK_LIB(rocsparse_set_mat_fill_mode(descr, rocsparse_fill_mode_lower));
	CHECK_LIB(rocsparse_set_mat_diag_type(descr, rocsparse_diag_type_non_unit));
	rocsparse_mat_info info;
	CHECK_LIB(rocsparse_create_mat_info(&info));
	size_t bytes = 0;
	CHECK_LIB(rocsparse_dcsrsv_buffer_size(h, rocsparse_operation_none, l.m, nnz, descr, d.val,
					       d.ptr, d.col, info, &bytes));
	void *tmp;
	CHECK(hipMalloc(&tmp, bytes ? bytes : 1));
	CHECK_LIB(rocsparse_dcsrsv_analysis(h, rocsparse_operation_none, l.m, nnz, descr, d.val,
					    d.ptr, d.col, info, rocsparse_analysis_policy_reuse,
					    rocsparse_solve_policy_auto, tmp));
	CHECK_LIB(rocsparse_dcsrsv_solve(h, rocsparse_operation_none, l.m, nnz, &alpha, descr,
					 d.val, d.ptr, d.col, info, dx, dy,
					 rocsparse_solve_policy_auto, tmp));
	rocsparse_int pivot = -2;
	rocsparse_status st = rocsparse_csrsv_zero_pivot(h, descr, info, &pivot);
	size_t wrong = compare("csrsv", to_host(dy, l.m), want);
	if (st != rocsparse_status_success) {
		fprintf(stderr,
			"csrsv: zero pivot reported at %d (status %d), the diagonal has none\n",
			(int)pivot, (int)st);
		wrong++;
	}
	CHECK_LIB(rocsparse_destroy_mat_info(info));
	CHECK_LIB(rocsparse_destroy_mat_descr(descr));
	CHECK(hipFree(tmp));
	CHECK(hipFree(dx));
	CHECK(hipFree(dy));
	release(d);
	return wrong;
}

static size_t step_hipsparse(void)
{
	hipsparseHandle_t h;
	hipsparseMatDescr_t descr;
	CHECK_LIB(hipsparseCreate(&h));
	CHECK_LIB(hipsparseCreateMatDescr(&descr));
	struct csr a = random_csr(1200, 900, false);
	int nnz = (int)a.col.size();
	std::vector<double> x = small_vector(a.n), y0 = small_vector(a.m);
	const double alpha = -3.0, beta = 2.0;
	struct dev_csr d = upload(a);
	double *dx = to_device(x), *dy = to_device(y0);
	CHECK_LIB(hipsparseDcsrmv(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, a.m, a.n, nnz, &alpha,
				  descr, d.val, d.ptr, d.col, dx, &beta, dy));
	size_t wrong =
		compare("hipsparse.csrmv", to_host(dy, a.m), spmv_host(a, alpha, x, beta, y0));

	const int ld = a.m;
	std::vector<double> dense = dense_of(a, ld);
	double *dA = to_device(dense);
	int *dcount, *dptr, *dcol, total = -1;
	double *dval;
	CHECK(hipMalloc(&dcount, a.m * sizeof(int)));
	CHECK(hipMalloc(&dptr, (a.m + 1) * sizeof(int)));
	CHECK(hipMalloc(&dcol, nnz * sizeof(int) + 1));
	CHECK(hipMalloc(&dval, nnz * sizeof(double) + 1));
	CHECK_LIB(hipsparseSetPointerMode(h, HIPSPARSE_POINTER_MODE_HOST));
	CHECK_LIB(
		hipsparseDnnz(h, HIPSPARSE_DIRECTION_ROW, a.m, a.n, descr, dA, ld, dcount, &total));
	wrong += compare("hipsparse.nnz", std::vector<int>(1, total), std::vector<int>(1, nnz));
	CHECK_LIB(hipsparseDdense2csr(h, a.m, a.n, descr, dA, ld, dcount, dval, dptr, dcol));
	wrong += compare("hipsparse.dense2csr.row_ptr", to_host(dptr, a.m + 1), a.ptr);
	wrong += compare("hipsparse.dense2csr.col_ind", to_host(dcol, nnz), a.col);
	wrong += compare("hipsparse.dense2csr.val", to_host(dval, nnz), a.val);
	CHECK_LIB(hipsparseDestroyMatDescr(descr));
	CHECK_LIB(hipsparseDestroy(h));
	release(d);
	CHECK(hipFree(dx));
	CHECK(hipFree(dy));
	CHECK(hipFree(dA));
	CHECK(hipFree(dcount));
	CHECK(hipFree(dptr));
	CHECK(hipFree(dcol));
	CHECK(hipFree(dval));
	return wrong;
}

int main(int argc, char **argv)
{
	size_t wrong = 0;
	rocsparse_handle h;

	setvbuf(stdout, NULL, _IOLBF, 0); /* each line out before a hang */
	if (argc < 2) {
		fprintf(stderr, "usage: %s csrmv|csr2csc|dense2csr|csrsv|hipsparse...\n", argv[0]);
		return 2;
	}
	CHECK_LIB(rocsparse_create_handle(&h));
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "csrmv"))
			wrong += step_csrmv(h);
		else if (!strcmp(argv[i], "csr2csc"))
			wrong += step_csr2csc(h);
		else if (!strcmp(argv[i], "dense2csr"))
			wrong += step_dense2csr(h);
		else if (!strcmp(argv[i], "csrsv"))
			wrong += step_csrsv(h);
		else if (!strcmp(argv[i], "hipsparse"))
			wrong += step_hipsparse();
		else {
			fprintf(stderr, "unknown step '%s'\n", argv[i]);
			return 2;
		}
	}
	CHECK_LIB(rocsparse_destroy_handle(h));
	printf("done\n");
	return wrong ? 1 : 0;
}
