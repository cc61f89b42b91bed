/// The first `k` elements of a strict order without sorting everything.
enum PartialSort {
    /// The `k` smallest elements of `elements` under `less`, in order; equal to `sorted(by: less).prefix(k)`
    /// when `less` is a strict total order.
    /// - Complexity: O(n log k), with one comparison per element once the heap is full.
    static func smallest<T>(_ k: Int, of elements: [T], by less: (T, T) -> Bool) -> [T] {
        guard k > 0 else { return [] }
        guard elements.count > k else { return elements.sorted(by: less) }
        // A max-heap of the k smallest seen so far: the root is the largest of them.
        var heap: [T] = []
        heap.reserveCapacity(k)
        for element in elements {
            if heap.count < k {
                heap.append(element)
                siftUp(&heap, from: heap.count - 1, less)
            } else if less(element, heap[0]) {
                heap[0] = element
                siftDown(&heap, from: 0, less)
            }
        }
        return heap.sorted(by: less)
    }

    private static func siftUp<T>(_ heap: inout [T], from start: Int, _ less: (T, T) -> Bool) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private static func siftDown<T>(_ heap: inout [T], from start: Int, _ less: (T, T) -> Bool) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            var largest = left
            if right < heap.count, less(heap[left], heap[right]) { largest = right }
            guard less(heap[parent], heap[largest]) else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
