/*
 * pearl/grow.h - room in a malloc'd array that grows as elements are
 * added.
 */
#ifndef PEARL_GROW_H
#define PEARL_GROW_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes room for `need` elements of elem_size bytes in a malloc'd array.
 * `array` is the address of the array's pointer (a T ** for elements of
 * type T; the pointer may be NULL while *cap is 0) and *cap the number of
 * elements the array has room for. If need > *cap, the array is
 * reallocated to room for at least twice *cap, need and 8 elements (so
 * that adding one element at a time takes amortized constant time) and
 * *cap is updated; the elements it holds are kept, the new room is not
 * initialized. Returns 0, or -1 if memory is exhausted or the size does
 * not fit, with the array and *cap left as they were. The array stays
 * the caller's either way: it frees it with free(). */
int pearl_grow(void *array, int *cap, int need, size_t elem_size);

/* Frees a malloc'd array of n elements of elem_size bytes (NULL is
 * fine) after calling clear, if not NULL, on each element in turn: the
 * element's own resources are clear's to release, the array's memory is
 * released here. Takes the array. */
void pearl_grow_free(void *array, int n, size_t elem_size,
	void (*clear)(void *elem));

#ifdef __cplusplus
}
#endif

#endif
